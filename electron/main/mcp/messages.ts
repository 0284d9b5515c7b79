import { text, type Text } from '../../common/i18n';

/**
 * What people and the model are told about MCP servers, Korean first. A server is external code the
 * administrator chose to run: the texts say which server, what happened, and what to do next
 * (SPEC G-SIGNPOST), without repeating what the server itself wrote (that is untrusted text).
 */

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export type StopReason = 'exited' | 'hang' | 'start-timeout' | 'flood' | 'start-failed';

export const mcpMessages = {
  /** The call found the server not running (restarting, given up, or never started). */
  unavailable: (server: string, restarting: boolean): Text =>
    restarting
      ? text(
          `MCP 서버 '${server}'이(가) 다시 시작하는 중이라 지금은 도구를 쓸 수 없습니다. 잠시 뒤에 다시 시도하거나 다른 도구를 쓰세요.`,
          `The MCP server '${server}' is restarting, so its tools cannot be used right now. Try again shortly, or use another tool.`,
        )
      : text(
          `MCP 서버 '${server}'이(가) 멈춰 있어 도구를 쓸 수 없습니다. 다른 도구를 쓰거나, 관리자에게 서버를 확인해 달라고 하세요.`,
          `The MCP server '${server}' is not running, so its tools cannot be used. Use another tool, or ask the administrator to check the server.`,
        ),
  callTimedOut: (server: string, tool: string, ms: number): Text =>
    text(
      `MCP 서버 '${server}'의 도구 '${tool}'이(가) ${seconds(ms)}초 안에 답하지 않아 서버를 멈췄습니다(다시 시작합니다). 같은 호출을 되풀이하지 말고 다른 방법을 찾으세요.`,
      `The tool '${tool}' of the MCP server '${server}' did not answer within ${seconds(ms)} s, so the server was stopped (it restarts). Do not repeat the same call; find another way.`,
    ),
  flooded: (server: string, tool: string, limitBytes: number): Text =>
    text(
      `MCP 서버 '${server}'이(가) 도구 '${tool}'의 답으로 허용량(${Math.round(limitBytes / 1024)} KiB)보다 많이 보내 서버를 멈췄습니다(다시 시작합니다). 더 작은 범위로 요청하세요.`,
      `The MCP server '${server}' sent more than its limit (${Math.round(limitBytes / 1024)} KiB) in answer to '${tool}', so it was stopped (it restarts). Ask for a smaller range.`,
    ),
  diedDuringCall: (server: string, tool: string): Text =>
    text(
      `MCP 서버 '${server}'이(가) 도구 '${tool}'을(를) 실행하다가 끝나 버렸습니다. 결과가 없습니다. 다른 도구를 쓰거나 나중에 다시 시도하세요.`,
      `The MCP server '${server}' ended while running '${tool}'; there is no result. Use another tool or try again later.`,
    ),
  serverError: (server: string, tool: string, detail: string): Text =>
    text(
      `MCP 서버 '${server}'이(가) 도구 '${tool}' 호출을 거절했습니다: ${detail}. 인수를 고치거나 다른 도구를 쓰세요.`,
      `The MCP server '${server}' refused the call of '${tool}': ${detail}. Fix the arguments or use another tool.`,
    ),
  toolReportedError: (server: string, tool: string): Text =>
    text(`[MCP 서버 '${server}'의 도구 '${tool}'이(가) 오류를 알렸습니다.]`, `[The tool '${tool}' of the MCP server '${server}' reported an error.]`),
  cancelled: text('사용자가 멈춰서 MCP 도구 호출을 취소했습니다.', 'The MCP tool call was cancelled because the user pressed Stop.'),
  omitted: (kind: string, detail: string): string => `[${kind} ${detail}: not shown]`,

  /** The approval's plain-language summary: server and tool by name, the server's claims as claims. */
  summary: (server: string, tool: string, claims: readonly string[]): Text =>
    text(
      `MCP 서버 '${server}'의 도구 '${tool}'을(를) 실행합니다(외부 프로그램).${claims.length > 0 ? ` 서버의 주장: ${claims.join(', ')} — 확인되지 않았으며 위험도는 정책이 정합니다.` : ''}`,
      `Runs the tool '${tool}' of the MCP server '${server}' (an external program).${claims.length > 0 ? ` The server claims: ${claims.join(', ')} — unverified; the policy sets the risk.` : ''}`,
    ),
  destination: (server: string, program: string): string => `MCP ${server} (${program})`,

  // ── reports for the administrator (CLI stderr, the app's log) ─────────────────────────────
  started: (server: string, tools: number, program: string): Text =>
    text(`MCP 서버 '${server}'을(를) 시작했습니다(${program}, 알려 준 도구 ${tools}개).`, `Started the MCP server '${server}' (${program}, ${tools} tools listed).`),
  refusedProgram: (server: string, why: string): Text =>
    text(`MCP 서버 '${server}'을(를) 시작하지 않았습니다: ${why}`, `The MCP server '${server}' was not started: ${why}`),
  stopped: (server: string, reason: StopReason, detail: string): Text => {
    switch (reason) {
      case 'hang':
        return text(`MCP 서버 '${server}'이(가) 제한 시간 안에 답하지 않아 멈췄습니다${detail}.`, `The MCP server '${server}' did not answer in time and was stopped${detail}.`);
      case 'start-timeout':
        return text(
          `MCP 서버 '${server}'이(가) 시작 제한 시간 안에 준비되지 않아(initialize/tools/list) 멈췄습니다${detail}. 관리자는 서버 명령과 startTimeoutMs를 확인하세요.`,
          `The MCP server '${server}' was not ready within its start limit (initialize/tools/list) and was stopped${detail}. Administrators: check the server's command and startTimeoutMs.`,
        );
      case 'flood':
        return text(
          `MCP 서버 '${server}'이(가) 허용량보다 많이 보내 멈췄습니다${detail}. 관리자는 maxOutputBytes를 확인하세요.`,
          `The MCP server '${server}' sent more than it may and was stopped${detail}. Administrators: check maxOutputBytes.`,
        );
      case 'start-failed':
        return text(`MCP 서버 '${server}'을(를) 시작하지 못했습니다${detail}.`, `The MCP server '${server}' could not be started${detail}.`);
      case 'exited':
        return text(`MCP 서버 '${server}'이(가) 끝났습니다${detail}.`, `The MCP server '${server}' ended${detail}.`);
    }
  },
  stderrTail: (server: string, tail: string): Text => {
    const quoted = tail.split('\n').map((line) => `    | ${line}`).join('\n');
    return text(`  MCP 서버 '${server}'의 마지막 오류 출력:\n${quoted}`, `  Last error output of the MCP server '${server}':\n${quoted}`);
  },
  restarting: (server: string, attempt: number, max: number, delayMs: number): Text =>
    text(`MCP 서버 '${server}'을(를) ${seconds(delayMs)}초 뒤 다시 시작합니다(${attempt}/${max}번째).`, `Restarting the MCP server '${server}' in ${seconds(delayMs)} s (attempt ${attempt} of ${max}).`),
  gaveUp: (server: string, max: number): Text =>
    text(
      `MCP 서버 '${server}'을(를) ${max}번 다시 시작했지만 계속 멈춰 이 세션에서는 더 시작하지 않습니다. 도구 목록에서 뺐습니다. 관리자에게 알리세요.`,
      `The MCP server '${server}' kept failing after ${max} restarts; it is not started again in this session and its tools were removed. Tell the administrator.`,
    ),
  toolRejected: (server: string, tool: string, rules: Text): Text =>
    text(
      `MCP 서버 '${server}'의 도구 '${tool}'을(를) 등록하지 않았습니다(${rules.ko}). 다른 도구는 그대로 씁니다.`,
      `The tool '${tool}' of the MCP server '${server}' was not registered (${rules.en}); the server's other tools are kept.`,
    ),
  listedTwice: (tool: string): Text => text(`같은 이름이 두 번 나옵니다: ${tool}`, `listed twice: ${tool}`),
  toolNameRejected: (server: string, tool: string): Text =>
    text(
      `MCP 서버 '${server}'의 도구 이름 '${tool}'은(는) 쓸 수 없습니다(영문자·숫자·_·-로 64자까지).`,
      `The MCP server '${server}' has a tool named '${tool}', which cannot be used (letters, digits, _ and -, up to 64).`,
    ),
  notAnObject: text("입력 스키마가 'type: object'가 아닙니다", "the input schema is not 'type: object'"),
  tooManyTools: (server: string, kept: number): Text =>
    text(`MCP 서버 '${server}'이(가) 도구를 너무 많이 알려 처음 ${kept}개만 등록했습니다.`, `The MCP server '${server}' listed too many tools; only the first ${kept} were registered.`),
};
