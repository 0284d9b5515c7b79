import type { Risk, SubjectKind } from '../../common/domain';
import { text, type Text } from '../../common/i18n';

/**
 * Deny reasons the model reads (SPEC G-SIGNPOST): each says what to do instead, because a small
 * model treats the error text as its next prompt. Korean first.
 */

const SIGNPOSTS: Readonly<Record<SubjectKind | 'NONE', Text>> = {
  PATH: text(
    '작업 공간 안의 다른 파일을 쓰세요 (filesystem.list로 있는 파일을 볼 수 있습니다).',
    'Use other files inside the workspace (filesystem.list shows what is there).',
  ),
  COMMAND: text(
    '셸 명령 대신 전용 도구를 쓰세요: 파일 찾기는 filesystem.search, 내용 검색은 search.text, 폴더 목록은 filesystem.list.',
    'Use a dedicated tool instead: filesystem.search to find files, search.text to search contents, filesystem.list to list a folder.',
  ),
  URL: text('정책이 허용하는 사내 주소만 쓰세요.', 'Use only addresses the policy allows.'),
  HOST: text('정책에 등록된 서버만 쓰세요.', 'Use only hosts configured in the policy.'),
  NONE: text('이 도구 대신 다른 도구를 쓰거나 사용자에게 물어보세요.', 'Use another tool, or ask the user.'),
};

const EXAMPLE_PATH = 'reports/a.xlsx';

export const policyMessages = {
  unknownTool: (tool: string): Text =>
    text(`'${tool}' 도구는 없습니다. 도구 목록에 있는 이름만 쓰세요.`, `There is no tool '${tool}'. Use only a tool from the tool list.`),

  deniedByRule: (rule: string, kind: SubjectKind | null): Text => {
    const signpost = SIGNPOSTS[kind ?? 'NONE'];
    return text(
      `정책 규칙 '${rule}'이(가) 이 호출을 막았습니다. ${signpost.ko}`,
      `The policy rule '${rule}' blocks this call. ${signpost.en}`,
    );
  },

  deniedByDefault: (risk: Risk): Text =>
    text(
      `정책이 이 종류(${risk})의 도구를 기본으로 막고 있습니다. 읽기 전용 도구를 쓰거나 사용자에게 물어보세요.`,
      `The policy denies ${risk} tools unless a rule allows them. Use a read-only tool, or ask the user.`,
    ),

  outsideRoots: (raw: string, root: string | undefined, throughLink: boolean): Text => {
    if (root === undefined) {
      return text(
        '작업 공간 폴더가 설정되지 않아 파일 도구를 쓸 수 없습니다. 사용자에게 작업 공간 폴더를 정해 달라고 하세요.',
        'No workspace folder is configured, so file tools cannot be used. Ask the user to choose a workspace folder.',
      );
    }
    const where = throughLink
      ? { ko: `'${raw}'은(는) 링크를 따라가면 작업 공간(${root}) 밖입니다.`, en: `'${raw}' leads outside the workspace (${root}) through a link.` }
      : { ko: `'${raw}'은(는) 작업 공간(${root}) 밖입니다.`, en: `'${raw}' is outside the workspace (${root}).` };
    return text(
      `${where.ko} 작업 공간 안의 상대 경로(예: '${EXAMPLE_PATH}')를 쓰세요. filesystem.list로 작업 공간의 파일을 볼 수 있습니다.`,
      `${where.en} Use a relative path inside the workspace (e.g. '${EXAMPLE_PATH}'); filesystem.list shows what is there.`,
    );
  },

  protectedPath: (raw: string): Text =>
    text(
      `'${raw}'은(는) 바람이 보호하는 위치(감사 기록, 정책, 프로그램 데이터)라 어떤 도구도 다룰 수 없습니다. 작업 공간의 다른 파일을 쓰세요.`,
      `'${raw}' is a location Baram protects (audit records, policy, its own data); no tool may touch it. Use other files in the workspace.`,
    ),

  executionEquivalent: (raw: string): Text =>
    text(
      `'${raw}'에 쓰는 것은 프로그램 실행과 같아서(스크립트·실행 파일·바로 가기·설치 파일 .bat .ps1 .vbs .hta .exe .lnk .msi, 매크로 문서·서식·추가 기능 .xlsm .docm .dotm .xlam, .git 폴더와 commondir) 막혀 있습니다. .txt, .xlsx, .docx 같은 형식으로 저장하거나, 꼭 필요하면 사용자가 직접 하도록 안내하세요.`,
      `Writing '${raw}' amounts to running code (scripts, programs, shortcuts and installers such as .bat .ps1 .vbs .hta .exe .lnk .msi; macro-enabled documents, templates and add-ins such as .xlsm .docm .dotm .xlam; anything in a .git folder or named commondir), so it is blocked. Save as .txt, .xlsx or .docx instead, or tell the user to do this step themselves.`,
    ),

  invalidPath: text(
    `경로가 비어 있거나, NUL 문자가 있거나, 'D:x'처럼 드라이브의 현재 폴더 기준입니다. 작업 공간 안의 상대 경로(예: '${EXAMPLE_PATH}')를 쓰세요.`,
    `The path is empty, contains a NUL character, or is relative to a drive's current folder (like 'D:x'). Use a relative path inside the workspace (e.g. '${EXAMPLE_PATH}').`,
  ),

  uninterpretable: (rule: string): Text =>
    text(
      `정책 규칙 '${rule}'을(를) 이 도구에 적용할 수 없어 안전을 위해 호출을 막았습니다. 다른 도구를 쓰고, 사용자에게 관리자가 규칙을 고치도록 알려 달라고 하세요.`,
      `The policy rule '${rule}' cannot be applied to this tool, so the call is blocked to be safe. Use another tool, and ask the user to have the administrator fix the rule.`,
    ),

  emptySubject: (rule: string): Text =>
    text(
      `정책 규칙 '${rule}'이(가) 확인할 대상(경로, 명령, 주소)이 호출에 없거나 읽을 수 없어 막았습니다. 대상을 분명히 적어 다시 호출하세요.`,
      `The call gives no target (path, command or address) that the policy rule '${rule}' could check, or the target cannot be read, so it is blocked. Call again with the target written out.`,
    ),

  evaluationError: text(
    '권한 확인 중 오류가 나서 안전을 위해 호출을 막았습니다. 한 번만 다시 시도하고, 계속되면 사용자에게 알리세요.',
    'The permission check failed, so the call is blocked to be safe. Try once more; if it keeps failing, tell the user.',
  ),
} as const;
