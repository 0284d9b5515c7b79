import type { ApprovalChoice } from '../../../common/approval';
import type { Decision, Outcome } from '../../../common/domain';
import { text, type Text } from '../../../common/i18n';

/**
 * Words for the codes a row stores, for people reading an export (issue 15 item 16): a Korean
 * security officer filters a spreadsheet by "거부", not by "deny". The code itself always stays in
 * its own column, so a filter or a script written against the codes keeps working. Complete by
 * type; a code this build does not know (a newer build's, a forged row's) shows as itself.
 */
const DECISIONS: Readonly<Record<Decision, Text>> = {
  allow: text('허용', 'Allowed'),
  ask: text('확인 요청', 'Ask the user'),
  deny: text('거부', 'Denied'),
};

const OUTCOMES: Readonly<Record<Outcome, Text>> = {
  ok: text('성공', 'Succeeded'),
  error: text('오류', 'Error'),
  denied: text('거부됨', 'Denied'),
  invalid: text('입력 형식 오류', 'Invalid input'),
  refused: text('사전 점검에서 거절', 'Refused by precheck'),
  timeout: text('시간 초과', 'Timed out'),
  cancelled: text('취소됨', 'Cancelled'),
};

const CHOICES: Readonly<Record<ApprovalChoice, Text>> = {
  'allow-once': text('이번만 허용', 'Allowed once'),
  'allow-session': text('이 세션 동안 허용', 'Allowed for the session'),
  deny: text('거부', 'Denied'),
};

/** The word for `code` in `table`; own keys only, so a row typed `constructor` is not a function's name. */
export function labelOf(table: Readonly<Record<string, Text>>, code: string): Text {
  return Object.hasOwn(table, code) ? (table[code] as Text) : text(code, code);
}

export const decisionLabel = (code: string): Text => labelOf(DECISIONS, code);
export const outcomeLabel = (code: string): Text => labelOf(OUTCOMES, code);
export const choiceLabel = (code: string): Text => labelOf(CHOICES, code);
