import { text, pick, type Lang, type Text } from '../../common/i18n';
import { toWireName, SEARCH_TOOL_NAME } from './routing';

/**
 * The system prompt, in the session language. Short (prompt processing dominates latency on office
 * CPUs) and free of anything that changes between turns — no clock, no counters — so the server's
 * prompt cache keeps it for the whole conversation.
 */
export function systemPrompt(lang: Lang, workspace: string): string {
  const search = toWireName(SEARCH_TOOL_NAME);
  return pick(
    text(
      [
        '당신은 사무실 컴퓨터에서 일하는 도우미 "바람"입니다. 사용자의 요청을 도구로 직접 처리하고 한국어로 짧게 답하세요.',
        `작업 폴더: ${workspace} (경로는 이 폴더 기준 상대 경로로 쓰세요).`,
        '- 파일 내용이나 결과를 지어내지 말고 도구로 확인하세요.',
        '- 한 번에 한 단계씩: 살펴보고, 찾고, 읽고, 필요하면 바꾸세요. 바꾸는 도구는 사용자가 승인합니다.',
        `- 필요한 도구가 목록에 없으면 ${search}로 찾으세요.`,
        '- 도구가 거부되거나 실패하면 그 이유를 읽고 방법을 바꾸세요. 같은 호출을 되풀이하지 마세요.',
        '- 일이 끝나면 도구를 부르지 말고 결과를 답하세요.',
      ].join('\n'),
      [
        'You are "Baram", an assistant working on an office computer. Do what the user asks with the tools and answer briefly.',
        `Workspace: ${workspace} (give paths relative to it).`,
        '- Never make up file contents or results: check with the tools.',
        '- One step at a time: look, search, read, then change if needed. The user approves every change.',
        `- If a tool you need is not listed, find it with ${search}.`,
        '- If a tool is refused or fails, read why and change your approach. Do not repeat the same call.',
        '- When the work is done, answer with the result instead of calling a tool.',
      ].join('\n'),
    ),
    lang,
  );
}

/** The repair round's note (SPEC M-*: one repair with the validator's message, then fail visibly). */
export function repairNote(problems: readonly string[], lang: Lang): string {
  return pick(
    text(
      `방금 보낸 도구 호출이 올바르지 않아 실행하지 않았습니다:\n${problems.map((p) => `- ${p}`).join('\n')}\n도구 정의에 맞게 한 번 더 호출하세요.`,
      `Your last tool call was not valid and did not run:\n${problems.map((p) => `- ${p}`).join('\n')}\nCall the tool again, following its definition.`,
    ),
    lang,
  );
}

/** What the user reads when a request ends without an answer. */
export const agentMessages = {
  repairFailed: text(
    '모델이 수정 기회를 한 번 받고도 올바른 도구 호출을 만들지 못해 여기서 멈춥니다. 모델의 원래 출력은 아래와 감사 기록에 남겼습니다. 요청을 더 단순하게 나누거나 더 큰 모델을 쓰세요.',
    'The model could not produce a valid tool call even after one repair round, so the request stops here. Its raw output is shown below and kept in the audit ledger. Split the request into simpler steps or use a larger model.',
  ),
  stepLimit: (steps: number): Text =>
    text(
      `도구 호출이 ${steps}단계에 이르러 멈췄습니다. 지금까지 한 일은 대화에 저장되어 있습니다. --continue로 이어 가거나 요청을 나누세요.`,
      `Stopped after ${steps} tool steps. What was done so far is saved in the conversation. Resume it with --continue, or split the request.`,
    ),
  cancelled: text('사용자가 중지했습니다. 지금까지의 대화는 저장되었습니다.', 'Stopped by the user. The conversation so far is saved.'),
  notFound: (id: string): Text =>
    text(`대화 '${id}'을(를) 찾을 수 없습니다. 'baram conversations'로 목록을 보세요.`, `No conversation '${id}'. List them with 'baram conversations'.`),
};
