import { text, type Text } from '../../electron/common/i18n';

/**
 * The git tools' refusals and notes (SPEC G-SIGNPOST): each says what to do instead, because a
 * small model takes an error message as its next prompt.
 */
export const gitMessages = {
  notWhitelisted: (): Text =>
    text(
      'git 도구를 쓸 수 없습니다: 관리자 정책의 허용 프로그램 목록("shell" 항목의 "commands")에 git이 없습니다. git 기록이 필요하면 관리자에게 그 목록에 "git"을 넣어 달라고 요청하세요. 그때까지 파일 내용은 filesystem.read로 보세요.',
      'The git tools cannot be used: git is not in the administrator policy\'s program list ("commands" under "shell"). If you need git history, ask the administrator to add "git" to that list. Until then read files with filesystem.read.',
    ),
  notInstalled: (): Text =>
    text(
      `이 PC에는 git이 설치되어 있지 않거나 정책의 신뢰된 폴더("shell" 항목의 "trustedDirs")에 없습니다. 관리자에게 git 설치(Windows: Git for Windows, C:\\Program Files\\Git\\cmd)나 신뢰된 폴더 확인을 요청하세요. 그때까지 파일 내용은 filesystem.read로 보세요.`,
      `git is not installed on this PC, or not in one of the policy's trusted folders ("trustedDirs" under "shell"). Ask the administrator to install git (Windows: Git for Windows, C:\\Program Files\\Git\\cmd) or to check the trusted folders. Until then read files with filesystem.read.`,
    ),
  programRefused: (why: Text): Text =>
    text(`git을 실행할 수 없습니다: ${why.ko}`, `git cannot be run: ${why.en}`),
  notARepository: (shown: string, below: readonly string[]): Text =>
    text(
      `'${shown}'는 git 저장소가 아닙니다 (이 폴더와 그 위 폴더에 .git이 없습니다). ${below.length > 0 ? `이 안의 저장소: ${below.map((b) => `'${b}'`).join(', ')} — 그중 하나를 path로 주세요.` : '저장소 폴더(.git이 있는 폴더)나 그 안의 폴더를 path로 주세요.'} 폴더 내용은 filesystem.list로 보세요.`,
      `'${shown}' is not a git repository (no .git in it or above it). ${below.length > 0 ? `Repositories inside it: ${below.map((b) => `'${b}'`).join(', ')} — give one of them as path.` : 'Give the repository folder (the one holding .git) or a folder inside it as path.'} filesystem.list shows what a folder holds.`,
    ),
  notAFolder: (shown: string): Text =>
    text(`'${shown}'이(가) 없습니다. 저장소 안의 폴더를 path로 주세요 (생략하면 작업 공간).`, `'${shown}' does not exist. Give a folder inside a repository as path (omit it for the workspace).`),
  fileOutsideRepository: (file: string, top: string): Text =>
    text(
      `'${file}'은(는) 저장소 '${top}' 밖에 있습니다. 그 저장소 안의 파일을 file로 주거나, 파일이 든 저장소 폴더를 path로 주세요.`,
      `'${file}' lies outside the repository '${top}'. Give a file inside that repository as file, or the file's own repository folder as path.`,
    ),
  notAFile: (file: string): Text =>
    text(
      `'${file}'은(는) 파일이 아니거나 없습니다. git.blame에는 저장소 안의 파일 하나를 주세요 (폴더의 변경 내역은 git.log).`,
      `'${file}' is not a file or does not exist. git.blame takes one file inside a repository (a folder's history is git.log).`,
    ),
  badRef: (ref: string): Text =>
    text(
      `'${ref}'은(는) 커밋이나 브랜치 이름으로 쓸 수 없습니다. 커밋 id(예: 3f2a9c1), 브랜치나 태그 이름, HEAD, HEAD~2 같은 형태만 받습니다 ('-'로 시작하거나 공백·':'·'*' 등을 담을 수 없음). 커밋 id는 git.log로 찾으세요.`,
      `'${ref}' cannot be used as a commit or branch. Only a commit id (e.g. 3f2a9c1), a branch or tag name, HEAD or forms like HEAD~2 are accepted (no leading '-', no spaces, ':' or '*'). Find commit ids with git.log.`,
    ),
  unknownRef: (ref: string): Text =>
    text(
      `이 저장소에는 '${ref}'라는 커밋이나 브랜치가 없습니다. git.log로 커밋 id를 확인한 뒤 다시 주세요.`,
      `This repository has no commit or branch '${ref}'. Look up the commit id with git.log and try again.`,
    ),
  noCommits: (): Text =>
    text('이 저장소에는 아직 커밋이 없습니다. 커밋 전의 변경은 git.status와 git.diff로 보세요.', 'This repository has no commits yet. See uncommitted changes with git.status and git.diff.'),
  gitFailed: (exit: number | null, output: string): Text =>
    text(
      `git이 실패했습니다 (종료 코드 ${exit ?? '없음'}): ${output.trim().slice(0, 500)} 인수를 줄여 다시 시도하거나 git.status로 저장소 상태를 확인하세요.`,
      `git failed (exit code ${exit ?? 'none'}): ${output.trim().slice(0, 500)} Try again with fewer arguments, or check the repository with git.status.`,
    ),
  startFailed: (why: Text): Text => ({ ko: `Command failed: ${why.ko}`, en: `Command failed: ${why.en}` }),
  hidden: (count: number): Text =>
    text(`정책이 막은 경로 ${count}개는 보여 주지 않았습니다.`, `${count} path(s) covered by a policy rule are not shown.`),
  captureCut: (): Text =>
    text('git 출력이 너무 커서 앞부분만 읽었습니다.', 'The git output was too large; only its beginning was read.'),
};
