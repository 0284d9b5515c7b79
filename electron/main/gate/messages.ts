import { text, type Text } from '../../common/i18n';

/**
 * Gate-level texts the model sees. Each refusal says what to do instead (SPEC G-SIGNPOST).
 */
export const gateMessages = {
  argumentsNotObject: text(
    '도구 인자는 JSON 객체여야 합니다 (예: {"path": "a.txt"}). 도구는 실행되지 않았습니다.',
    'Tool arguments must be a JSON object (e.g. {"path": "a.txt"}). The tool was not executed.',
  ),
  forbiddenKey: (path: string): Text =>
    text(
      `인자에 '${path}' 키를 쓸 수 없습니다 ('__proto__'는 이름으로 쓸 수 없는 키입니다). 그 키를 빼고 다시 호출하세요. 도구는 실행되지 않았습니다.`,
      `The arguments may not contain the key '${path}' ('__proto__' cannot be used as a name). Call again without it. The tool was not executed.`,
    ),
  unknownTool: (name: string, suggestion: string | undefined): Text =>
    suggestion
      ? text(
          `'${name}' 도구는 없습니다. '${suggestion}'을(를) 쓰려던 것인가요? 도구 목록에 있는 이름만 쓰세요.`,
          `There is no tool '${name}'. Did you mean '${suggestion}'? Use only names from the tool list.`,
        )
      : text(
          `'${name}' 도구는 없습니다. 도구 목록에 있는 이름만 쓰세요 (파일은 filesystem.*, 내용 검색은 search.text).`,
          `There is no tool '${name}'. Use only names from the tool list (files: filesystem.*, content search: search.text).`,
        ),
  deniedByRule: (rule: string): Text =>
    text(
      `정책 규칙 '${rule}'이(가) 이 호출을 막았습니다. 다른 방법을 쓰거나 사용자에게 관리자 정책을 확인해 달라고 하세요.`,
      `The policy rule '${rule}' blocks this call. Use another way, or ask the user to check the administrator's policy.`,
    ),
  deniedByUser: (reason: string | undefined): Text =>
    reason
      ? text(
          `사용자가 이 작업을 거부했습니다. 사유: ${reason}. 사유에 맞게 계획을 바꾸세요.`,
          `The user declined this action. Reason: ${reason}. Change the plan accordingly.`,
        )
      : text(
          '사용자가 이 작업을 거부했습니다. 같은 요청을 반복하지 말고 사용자에게 어떻게 할지 물어보세요.',
          'The user declined this action. Do not repeat the same request; ask the user how to proceed.',
        ),
  approvalTimedOut: (seconds: number): Text =>
    text(
      `승인 요청이 ${seconds}초 동안 답이 없어 거부로 처리했습니다. 사용자가 자리에 있는지 확인한 뒤 다시 요청하세요.`,
      `The approval request got no answer within ${seconds} s and was treated as denied. Check that the user is present, then ask again.`,
    ),
  noApprover: text(
    '이 작업은 승인이 필요한데 승인할 사람이 없습니다 (--approve 없이 실행). 읽기 전용 도구를 쓰거나 사용자에게 승인 모드로 실행해 달라고 하세요.',
    'This action needs approval but no approver is available (run without --approve). Use a read-only tool, or ask the user to run with approvals enabled.',
  ),
  approvalMismatch: text(
    '승인 답변이 이 요청의 내용과 맞지 않아(다른 요청에 대한 답) 거부로 처리했습니다. 같은 작업이 필요하면 다시 요청하세요.',
    'The approval answer did not match this request (it answered a different one) and was treated as denied. Ask again if the action is still needed.',
  ),
  changedAfterApproval: (paths: readonly string[], program: boolean): Text =>
    program
      ? text(
          '승인한 뒤 실행할 프로그램 파일이 바뀌어 실행하지 않았습니다. 사용자에게 알리고, 필요하면 다시 요청해 새로 승인을 받으세요.',
          'The program file changed after it was approved, so nothing was run. Tell the user, and ask again for a new approval if needed.',
        )
      : text(
          `승인한 뒤 대상이 바뀌어 아무것도 하지 않았습니다: ${paths.join(', ')}. 지금 상태를 다시 확인한 뒤 다시 요청하세요.`,
          `The targets changed after approval, so nothing was done: ${paths.join(', ')}. Look at their current state, then ask again.`,
        ),
  leftAlone: (paths: readonly string[]): Text =>
    text(
      `승인한 뒤 바뀐 ${paths.length}개는 손대지 않았습니다: ${paths.join(', ')}`,
      `${paths.length} changed after approval and were left alone: ${paths.join(', ')}`,
    ),
  resultNotRecorded: text(
    '[주의: 도구는 실행되었지만 결과를 감사 기록에 남기지 못했습니다. 같은 작업을 반복하지 말고 사용자에게 관리자에게 알리라고 하세요.]',
    '[warning: the tool ran, but its result could not be written to the audit record. Do not repeat the action; ask the user to tell the administrator.]',
  ),
  cancelled: text('사용자가 중지했습니다. 도구 실행이 취소되었습니다.', 'Stopped by the user. The tool call was cancelled.'),
  auditUnavailable: text(
    '감사 기록을 쓸 수 없어 도구를 실행하지 않았습니다. 사용자에게 관리자에게 알리라고 하세요.',
    'The audit record could not be written, so the tool was not run. Ask the user to tell the administrator.',
  ),
  toolCrashed: text(
    '도구 내부 오류로 작업을 끝내지 못했습니다. 같은 호출을 반복하지 말고 다른 방법을 쓰거나 사용자에게 알리세요.',
    'The tool failed with an internal error. Do not repeat the same call; try another way or tell the user.',
  ),
  /** Korean gloss appended under the verbatim English schema messages in a Korean session. */
  schemaGloss: text(
    '인자가 도구 형식과 맞지 않아 실행하지 않았습니다. 위 안내대로 인자를 고쳐 다시 호출하세요.',
    '',
  ),
  truncated: (shown: number, total: number): Text =>
    text(
      `[출력이 길어 ${total}자 중 앞 ${shown}자만 보여 줍니다. 범위를 좁혀 다시 요청하세요.]`,
      `[output truncated: showing the first ${shown} of ${total} characters; narrow the request to see more]`,
    ),
} as const;
