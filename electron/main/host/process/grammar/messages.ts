import { text, type Text } from '../../../../common/i18n';

/** Refusal texts of the program grammars. Each says what to do instead (SPEC G-SIGNPOST). */

const FILE_TOOLS_KO = '파일 작업은 filesystem 도구, 내용 검색은 search.text를 쓰세요';
const FILE_TOOLS_EN = 'use the filesystem tools for file work and search.text to search contents';

export const grammarMessages = {
  unknownSubcommand: (program: string, arg: string, allowed: readonly string[]): Text =>
    text(
      `'${program} ${arg}'는 허용되지 않습니다. 바람이 실행하는 ${program} 하위 명령은 읽기 전용인 ${allowed.join(', ')}뿐입니다. ${FILE_TOOLS_KO}.`,
      `'${program} ${arg}' is not allowed. Baram runs only the read-only ${program} subcommands ${allowed.join(', ')}; ${FILE_TOOLS_EN}.`,
    ),
  noGlobalOptions: (program: string, arg: string): Text =>
    text(
      `'${program}'의 전역 옵션 '${arg}'는 쓸 수 없습니다 (-C, -c, --git-dir 같은 옵션은 작업 공간 밖을 가리키거나 설정을 바꿉니다). 하위 명령을 먼저 쓰고(예: ["status"]), 다른 폴더는 cwd로 주세요.`,
      `The ${program} global option '${arg}' is not accepted (options like -C, -c or --git-dir point outside the workspace or change configuration). Put the subcommand first (e.g. ["status"]) and give another folder as cwd.`,
    ),
  unknownOption: (where: string, arg: string, suggestion?: string): Text =>
    text(
      `'${where}'에는 '${arg}' 옵션을 쓸 수 없습니다 (허용 목록에 없는 옵션: 프로그램을 실행하거나, 파일을 쓰거나, 작업 공간 밖을 읽을 수 있음).${suggestion ? ` '${suggestion}'을(를) 뜻했다면 그 철자 그대로 쓰세요.` : ''} 이 옵션 없이 다시 시도하세요.`,
      `'${where}' does not accept the option '${arg}' (not in its allowlist: such options can run programs, write files or read outside the workspace).${suggestion ? ` If you meant '${suggestion}', write it exactly so.` : ''} Try again without it.`,
    ),
  abbreviation: (where: string, arg: string, full: string): Text =>
    text(
      `'${where}': 줄여 쓴 옵션 '${arg}'는 받지 않습니다. 전체 철자 '${full}'를 쓰세요.`,
      `'${where}': the abbreviated option '${arg}' is not accepted. Write it in full: '${full}'.`,
    ),
  noValue: (where: string, arg: string): Text =>
    text(`'${where}': '${arg}'는 값을 받지 않습니다. '=' 뒤를 빼세요.`, `'${where}': '${arg}' takes no value; drop what follows '='.`),
  missingValue: (where: string, arg: string): Text =>
    text(`'${where}': '${arg}' 뒤에 값이 필요합니다.`, `'${where}': '${arg}' needs a value.`),
  badValue: (where: string, arg: string, value: string, expected: string): Text =>
    text(
      `'${where}': '${arg}'의 값 '${value}'가 맞지 않습니다 (${expected}).`,
      `'${where}': the value '${value}' of '${arg}' is not accepted (${expected}).`,
    ),
  noPositionals: (where: string, arg: string): Text =>
    text(`'${where}'에는 '${arg}' 같은 인수를 줄 수 없습니다 (옵션만 받습니다).`, `'${where}' takes no argument such as '${arg}' (options only).`),
  tooManyPositionals: (where: string, arg: string, max: number): Text =>
    text(`'${where}'에는 인수를 ${max}개까지만 줄 수 있습니다 ('${arg}'부터 남음).`, `'${where}' takes at most ${max} argument(s) ('${arg}' is one too many).`),
  tooFewPositionals: (where: string, min: number): Text =>
    text(`'${where}'에는 인수가 ${min}개 필요합니다.`, `'${where}' needs ${min} argument(s).`),
  requiredOption: (where: string, options: readonly string[]): Text =>
    text(`'${where}'는 ${options.join(' 또는 ')} 옵션과 함께만 실행합니다.`, `'${where}' runs only with ${options.join(' or ')}.`),
  positionalsNeed: (where: string, arg: string, options: readonly string[]): Text =>
    text(
      `'${where}'에 '${arg}' 같은 이름을 주려면 ${options.join(' 또는 ')}을(를) 함께 쓰세요 (없으면 새로 만들기가 됩니다).`,
      `To give '${where}' a name such as '${arg}', add ${options.join(' or ')} (without it the name would be created).`,
    ),
  badHost: (where: string, arg: string): Text =>
    text(`'${where}': '${arg}'는 호스트 이름이나 주소가 아닙니다.`, `'${where}': '${arg}' is not a host name or address.`),
  pathRefused: (program: string, arg: string, why: Text): Text =>
    text(
      `'${program}'의 경로 인수 '${arg}'는 쓸 수 없습니다: ${why.ko} 작업 공간 안의 경로를 쓰세요.`,
      `The path argument '${arg}' of '${program}' is refused: ${why.en} Use a path inside the workspace.`,
    ),
  repository: (detail: Text): Text =>
    text(
      `이 폴더의 git 저장소는 쓸 수 없습니다: ${detail.ko} git은 작업 공간 안에 있는 저장소에서만 실행합니다. 파일 내용은 filesystem.read로 보세요.`,
      `git is not run in this folder's repository: ${detail.en} git runs only in repositories inside the workspace. Read files with filesystem.read instead.`,
    ),
  noConfinement: (program: string): Text =>
    text(
      `'${program}'의 경로 인수를 확인할 작업 공간 정보가 없어 실행하지 않습니다.`,
      `'${program}' is not run: there is no workspace to hold its path arguments to.`,
    ),
  gitWouldShowHidden: (subcommand: string): Text =>
    text(
      `이 정책은 일부 경로를 읽지 못하게 막습니다. 파일을 하나하나 지정하지 않은 'git ${subcommand}'는 그 경로의 이름이나 내용까지 보여 줄 수 있어 shell.execute로는 실행하지 않습니다. 막힌 경로를 빼고 보여 주는 git.status, git.log, git.diff, git.show를 쓰세요.`,
      `This policy hides some paths from reading, and 'git ${subcommand}' without named files can show their names or contents, so shell.execute does not run it. Use git.status, git.log, git.diff or git.show, which leave the hidden paths out.`,
    ),
  adminDenied: (program: string, arg: string, rule: string): Text =>
    text(
      `'${program}'에는 '${arg}' 인자를 쓸 수 없습니다(관리자 규칙 '${rule}'). 이 옵션 없이 다시 시도하거나, ${FILE_TOOLS_KO}.`,
      `'${program}' may not get the argument '${arg}' (administrator rule '${rule}'). Try again without it, or ${FILE_TOOLS_EN}.`,
    ),
};
