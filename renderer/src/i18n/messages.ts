import { text, type Text } from '../../../electron/common/i18n';
import type { Decision, Outcome, Risk, RuleSource } from '../../../electron/common/domain';
import type { IpcErrorCode } from '../../../electron/common/ipc-contract';

/**
 * Every string the page shows, Korean first. One Text per message (not two parallel files), so a
 * message cannot exist in one language only.
 */
export const messages = {
  title: text('바람', 'Baram'),
  tagline: text('사무실 안에서만 일하는 업무 도우미', 'An office assistant that works only inside your office'),
  version: text('버전', 'Version'),
  bridgeMissing: text(
    '데스크톱 앱과 연결되어 있지 않습니다. 이 화면은 바람 데스크톱 앱 안에서 열었을 때 동작합니다.',
    'Not connected to the desktop app. This screen works when opened inside the Baram desktop app.',
  ),
  language: text('언어', 'Language'),
  // chat
  chatHeading: text('대화', 'Chat'),
  chatEmpty: text('무엇을 도와드릴까요? 예: "다운로드 폴더의 엑셀 파일을 연도별 폴더로 정리해줘"', 'What can I do for you? For example: "Sort the Excel files in Downloads into folders by year"'),
  composerLabel: text('요청 입력', 'Your request'),
  composerHint: text('Enter로 보내기, Shift+Enter로 줄바꿈', 'Enter sends, Shift+Enter adds a line'),
  send: text('보내기', 'Send'),
  stop: text('중지', 'Stop'),
  you: text('나', 'You'),
  assistant: text('바람', 'Baram'),
  thinking: text('생각하는 중…', 'Thinking…'),
  running: text('실행 중', 'Running'),
  waitingApproval: text('승인을 기다리는 중', 'Waiting for approval'),
  arguments: text('인수', 'Arguments'),
  result: text('결과', 'Result'),
  runCancelled: text('중지했습니다.', 'Stopped.'),
  runFailed: text('요청을 끝내지 못했습니다.', 'The request could not be completed.'),
  conversationsHeading: text('대화 목록', 'Conversations'),
  newConversation: text('새 대화', 'New conversation'),
  noConversations: text('저장된 대화가 없습니다.', 'No saved conversations.'),
  // approval
  approvalTitle: text('승인이 필요합니다', 'Approval needed'),
  approvalRisk: text('위험도', 'Risk'),
  approvalRule: text('적용된 규칙', 'Matched rule'),
  approvalFiles: text('영향을 받는 파일', 'Affected files'),
  approvalDestination: text('대상', 'Destination'),
  approvalPreview: text('변경 미리 보기', 'Preview of the change'),
  diffAdded: text('추가', 'added'),
  diffRemoved: text('삭제', 'removed'),
  approvalNewFolder: text('새로 만드는 폴더', 'New folder'),
  approvalNew: text('새로 만듦', 'new'),
  approvalReason: text('거부 이유 (선택, 모델에게 전달됩니다)', 'Reason for denying (optional, sent to the model)'),
  allowOnce: text('이번만 허용', 'Allow once'),
  allowSession: text('이 세션 동안 허용', 'Allow for this session'),
  deny: text('거부', 'Deny'),
  approvalQueued: text('대기 중인 승인 요청', 'approval requests waiting'),
  autoDenyIn: text('자동 거부까지', 'Auto-deny in'),
  seconds: text('초', 's'),
  // settings (issue 17 scope 5)
  navSettings: text('설정', 'Settings'),
  settingsHeading: text('설정', 'Settings'),
  settingsLanguage: text('화면 언어', 'Display language'),
  settingsLanguageHint: text('바로 바뀌고, 다음에 시작할 때도 유지됩니다.', 'Changes at once and is kept for the next start.'),
  settingsModel: text('모델', 'Model'),
  settingsModelCurrent: text('사용 중인 모델', 'Model in use'),
  settingsModelNone: text('없음', 'none'),
  settingsModelTarget: text('모델 서버 주소 또는 GGUF 파일 경로', 'Model server address or GGUF file path'),
  settingsModelAllowed: text('관리자가 허용한 모델', 'Models the administrator allows'),
  settingsModelLoopback: text('이 컴퓨터의 모델 서버 (127.0.0.1, localhost, 모든 포트)', 'Model servers on this computer (127.0.0.1, localhost, any port)'),
  settingsModelNoFiles: text('허용된 모델 파일이 없습니다.', 'No model file is allowed.'),
  settingsModelPick: text('이 파일 고르기', 'Pick this file'),
  settingsModelCheck: text('연결 확인', 'Check connection'),
  settingsModelChecking: text('확인하는 중…', 'Checking…'),
  settingsModelUse: text('이 모델 사용', 'Use this model'),
  settingsModelUsed: text('이 모델을 씁니다. 다음 요청부터 적용됩니다.', 'This model is used from the next request on.'),
  settingsModelCheckHint: text('확인할 때 문서나 질문은 보내지 않습니다.', 'A check sends no document and no question.'),
  settingsGrants: text('이 세션 동안 허용한 것', 'Allowed for this session'),
  settingsGrantsNone: text('이 세션에서 "이 세션 동안 허용"을 고른 적이 없습니다.', 'Nothing was allowed for this session yet.'),
  settingsGrantsHint: text('취소하면 다음에 같은 작업을 할 때 다시 묻습니다.', 'After revoking, the same action asks again next time.'),
  settingsGrantAll: text('(이 도구의 모든 호출)', '(every call of this tool)'),
  settingsRevoke: text('취소', 'Revoke'),
  settingsPolicy: text('적용 중인 정책 (읽기 전용)', 'Policy in force (read-only)'),
  settingsPolicyFile: text('관리자 정책 파일', 'Administrator policy file'),
  settingsPolicyBuiltin: text('없음 — 기본 정책을 씁니다', 'none — the built-in policy applies'),
  settingsPolicyDigest: text('정책 다이제스트', 'Policy digest'),
  settingsPolicyRoots: text('작업 폴더', 'Work folders'),
  settingsPolicyDefaults: text('위험도별 기본 판정', 'Default decision by risk'),
  settingsPolicyRules: text('규칙', 'Rules'),
  settingsPolicyNoRules: text('규칙이 없습니다 (기본 판정만 적용).', 'No rules (only the defaults apply).'),
  settingsPolicyDecision: text('판정', 'Decision'),
  settingsPolicyRule: text('규칙', 'Rule'),
  settingsPolicySource: text('출처', 'Source'),
  settingsPolicyLocked: text('관리자 고정', 'Locked by administrator'),
  settingsPolicyLockedHint: text(
    '"관리자 고정" 항목은 관리자가 정한 것이라 사용자 설정으로 넓힐 수 없습니다. 더 엄격하게만 바꿀 수 있습니다.',
    'Items "Locked by administrator" were set by the administrator: user settings cannot widen them, only make them stricter.',
  ),
  settingsPolicyShell: text('실행할 수 있는 프로그램', 'Programs that may run'),
  settingsPolicyHttp: text('접속할 수 있는 주소', 'Addresses that may be reached'),
  settingsPolicyModels: text('허용된 모델 서버와 파일', 'Allowed model servers and files'),
  settingsPolicyApproval: text('승인 대기 시간', 'Approval wait'),
  settingsPolicyRetention: text('감사 기록 보관 기간', 'Audit log kept for'),
  settingsPolicyDays: text('일', 'days'),
  settingsPolicyWarnings: text('정책 경고', 'Policy warnings'),
  settingsPolicyNone: text('없음', 'none'),
  modelStatusLabel: text('모델 상태', 'Model status'),
  modelConnected: text('연결됨', 'Connected'),
  modelUnreachable: text('연결 안 됨', 'Unreachable'),
  modelNone: text('모델 없음', 'No model'),
  // screens
  screens: text('화면', 'Screens'),
  navChat: text('대화', 'Chat'),
  navAudit: text('감사 기록', 'Audit log'),
  // audit viewer (security staff)
  auditHeading: text('감사 기록', 'Audit log'),
  auditFilters: text('조건', 'Filters'),
  auditFrom: text('시작 시각', 'From'),
  auditTo: text('끝 시각 (포함 안 함)', 'To (exclusive)'),
  auditUser: text('사용자', 'User'),
  auditTool: text('도구', 'Tool'),
  auditOutcome: text('결과', 'Outcome'),
  auditDecision: text('권한 판정', 'Decision'),
  auditText: text('내용 검색', 'Search text'),
  auditAny: text('전체', 'Any'),
  auditClear: text('조건 지우기', 'Clear filters'),
  auditRefresh: text('새로 고침', 'Refresh'),
  auditTable: text('감사 이벤트', 'Audit events'),
  auditColSeq: text('순번', 'Seq'),
  auditColTime: text('시각', 'Time'),
  auditColEvent: text('이벤트', 'Event'),
  auditColUser: text('사용자', 'User'),
  auditColTool: text('도구', 'Tool'),
  auditColTarget: text('대상', 'Target'),
  auditColResult: text('결과', 'Result'),
  auditLoading: text('불러오는 중…', 'Loading…'),
  auditSearching: text('더 찾는 중…', 'Searching further…'),
  auditNoEvents: text('조건에 맞는 이벤트가 없습니다.', 'No events match the filters.'),
  auditShown: text('불러온 이벤트:', 'Events loaded:'),
  auditMore: text('더 있음', 'more below'),
  auditDetail: text('이벤트 상세', 'Event detail'),
  auditDetailEmpty: text('목록에서 이벤트를 고르면 전체 내용이 여기에 나옵니다.', 'Choose an event in the list to see all of it here.'),
  auditThisCall: text('이 도구 호출의 이벤트만 보기', "Show this tool call's events"),
  auditThisRequest: text('이 요청의 이벤트 모두 보기', "Show all of this request's events"),
  allow: text('허용', 'allow'),
  ask: text('확인 요청', 'ask'),
  denyDecision: text('거부', 'deny'),
  auditVerify: text('무결성 검증', 'Verify integrity'),
  auditVerifying: text('검증하는 중…', 'Verifying…'),
  auditVerifyOk: text('검증 정상: 기록이 바뀌거나 빠지지 않았습니다', 'Verification OK: no record was changed or removed'),
  auditVerifyFailed: text('검증 실패', 'Verification FAILED'),
  auditFirstBadSeq: text('처음 문제가 된 순번', 'First bad seq'),
  auditReport: text('검증 보고서 전체', 'Full verification report'),
  auditExport: text('내보내기', 'Export'),
  auditExportFormat: text('형식', 'Format'),
  auditExportRange: text('시작·끝 시각 조건이 있으면 그 기간만 내보냅니다.', 'With a From/To filter, only that period is exported.'),
  auditExporting: text('내보내는 중…', 'Exporting…'),
  auditExported: text('내보냈습니다', 'Exported'),
  auditExportCancelled: text('내보내기를 취소했습니다.', 'Export cancelled.'),
  auditRows: text('기록 수', 'rows'),
  auditCheckpoint: text('최근 체크포인트', 'Latest checkpoint'),
  auditCheckpointHint: text(
    '이 체크포인트를 인쇄하거나 QR 코드를 사진으로 찍어 이 컴퓨터 밖에 보관하세요. 나중에 baram audit verify --checkpoint 로 기록이 그 뒤에 바뀌지 않았는지 확인합니다.',
    'Print this checkpoint or photograph its QR code and keep it off this machine. Later, baram audit verify --checkpoint shows that no record before it was changed.',
  ),
  auditCheckpointNone: text('아직 체크포인트가 없습니다.', 'No checkpoint yet.'),
  auditCheckpointTake: text('지금 체크포인트 만들기', 'Take a checkpoint now'),
  auditCheckpointQr: text('체크포인트 QR 코드', 'Checkpoint QR code'),
} as const satisfies Readonly<Record<string, Text>>;

export type MessageKey = keyof typeof messages;

/** Risk words an office worker understands; exhaustive, so a new Risk does not compile without one. */
export const riskLabels: Readonly<Record<Risk, Text>> = {
  read: text('읽기', 'Read'),
  write: text('쓰기', 'Write'),
  destructive: text('삭제·덮어쓰기', 'Delete/overwrite'),
  execute: text('프로그램 실행', 'Run programs'),
  network: text('네트워크', 'Network'),
};

/** What the page says when a call to the desktop app fails, by the contract's error code. */
export const ipcErrorMessages: Readonly<Record<IpcErrorCode, Text>> = {
  FORBIDDEN_SENDER: text(
    '이 화면은 데스크톱 앱에 요청할 권한이 없습니다. 앱을 다시 시작하세요.',
    'This page may not make requests to the desktop app. Restart the app.',
  ),
  BAD_REQUEST: text(
    '데스크톱 앱이 요청을 이해하지 못했습니다. 앱을 최신 버전으로 다시 설치하세요.',
    'The desktop app did not understand the request. Reinstall the latest version of the app.',
  ),
  UNAVAILABLE: text(
    '이 기능은 지금 연결되어 있지 않습니다(모델이나 작업 세션이 없음). 관리자에게 문의하세요.',
    'This feature is not connected right now (no model or working session). Ask your administrator.',
  ),
  BUSY: text('이미 처리 중인 요청이 있습니다. 끝나거나 중지한 뒤 다시 보내세요.', 'A request is already running. Wait for it or stop it, then send again.'),
  NOT_FOUND: text('그 요청은 이미 끝났습니다.', 'That request has already ended.'),
  INTERNAL: text(
    '데스크톱 앱 내부 오류가 발생했습니다. 관리자에게 앱 로그를 전달하세요.',
    'The desktop app hit an internal error. Send the application log to your administrator.',
  ),
};

/** Outcome badges on tool cards (SPEC G-NOTHROW outcomes); exhaustive. */
export const outcomeLabels: Readonly<Record<Outcome, Text>> = {
  ok: text('완료', 'Done'),
  error: text('오류', 'Error'),
  denied: text('거부됨', 'Denied'),
  invalid: text('잘못된 호출', 'Invalid call'),
  refused: text('실행 불가', 'Refused'),
  timeout: text('시간 초과', 'Timed out'),
  cancelled: text('중지됨', 'Stopped'),
};

/** Where the rule that asked came from; exhaustive. */
export const ruleSourceLabels: Readonly<Record<RuleSource, Text>> = {
  admin: text('관리자 정책', 'administrator policy'),
  user: text('사용자 설정', 'user settings'),
  session: text('이 세션의 허용', 'granted this session'),
  builtin: text('기본 규칙', 'built-in default'),
};

/** Permission decisions as the settings screen's policy view shows them; exhaustive. */
export const decisionLabels: Readonly<Record<Decision, Text>> = {
  allow: text('허용', 'Allow'),
  ask: text('확인 요청', 'Ask'),
  deny: text('거부', 'Deny'),
};
