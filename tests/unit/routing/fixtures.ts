import type { ToolInfo } from '../../../electron/main/gate/catalog';

/** A few cards shaped like the real ones, so these tests do not move when a tool's wording does. */
function tool(name: string, ko: string, en: string, keywords: string[], properties: Record<string, unknown> = { path: { type: 'string' } }): ToolInfo {
  return {
    name,
    family: name.split('.')[0]!,
    risk: 'read',
    concurrency: 'parallel-safe',
    description: { ko, en },
    keywords,
    subjectKind: null,
    schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  };
}

export const fixtureTools: readonly ToolInfo[] = [
  tool('filesystem.list', '폴더 안의 파일 목록을 봅니다.', 'List the files of a folder.', ['목록', '폴더', 'list', 'folder', 'ls']),
  tool('filesystem.read', '텍스트 파일을 읽습니다.', 'Read a text file.', ['읽기', '열기', '내용', 'read', 'open', 'cat']),
  tool('filesystem.write', '텍스트 파일을 새로 만듭니다.', 'Create a text file.', ['쓰기', '저장', '만들기', 'write', 'save']),
  tool('filesystem.move', '파일이나 폴더를 옮기거나 이름을 바꿉니다.', 'Move or rename files.', ['옮기기', '이동', '이름 바꾸기', '정리', 'move', 'rename']),
  tool('filesystem.delete', '파일을 휴지통으로 옮깁니다.', "Delete files into Baram's trash.", ['삭제', '지우기', '휴지통', 'delete', 'remove']),
  tool('search.text', '파일 내용에서 글자를 찾습니다(grep).', 'Search file contents (grep).', ['내용 검색', '검색', '문자열', 'grep', 'search', 'contents'], { pattern: { type: 'string' } }),
  tool('system.info', '운영체제, 메모리, 디스크 남은 공간을 봅니다.', 'Show OS, memory and free disk space.', ['시스템', '디스크', '용량', 'disk', 'memory', 'df'], {}),
  tool('shell.execute', '허용된 프로그램을 실행합니다.', 'Run an allowed program.', ['명령', '실행', 'git', 'command', 'run'], { command: { type: 'string' } }),
];
