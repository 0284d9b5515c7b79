import type { BlockedRequests, BrowserFailure, BrowserRefusal } from '../../electron/common/browser-capability';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import type { ToolResult } from '../../electron/common/tool-result';
import { fail } from './results';

/** Shared by browser.open and browser.screenshot: what the model hears about blocked requests and failures. */

/** "외부 요청 12개를 막았습니다 (http://cdn.example …)" — null when nothing was blocked. */
export function blockedNote(blocked: BlockedRequests, popupsClosed: number): Text | null {
  const parts: Text[] = [];
  if (blocked.count > 0) {
    const where = blocked.origins.length > 0 ? ` (${blocked.origins.join(', ')}${blocked.count > blocked.origins.length ? ' …' : ''})` : '';
    parts.push(text(`허용 목록 밖의 요청 ${blocked.count}개를 막았습니다${where}`, `Blocked ${blocked.count} request${blocked.count === 1 ? '' : 's'} outside the allowlist${where}`));
  }
  if (blocked.overLimit > 0) {
    parts.push(text(`한도(요청 수·용량)를 넘어 요청 ${blocked.overLimit}개는 보내지 않았습니다`, `${blocked.overLimit} request${blocked.overLimit === 1 ? ' was' : 's were'} not sent: the call's request or size limit was reached`));
  }
  if (popupsClosed > 0) parts.push(text(`팝업 창 ${popupsClosed}개를 닫았습니다`, `Closed ${popupsClosed} pop-up window${popupsClosed === 1 ? '' : 's'}`));
  if (parts.length === 0) return null;
  return text(`[${parts.map((p) => p.ko).join('; ')}]`, `[${parts.map((p) => p.en).join('; ')}]`);
}

export function browserFailure(lang: Lang, outcome: BrowserRefusal | BrowserFailure): ToolResult {
  if (outcome.outcome === 'refused') {
    return fail(lang, outcome.message, { url: outcome.url, stage: outcome.stage, reason: outcome.reason, ...(outcome.redirectedFrom ? { redirectedFrom: outcome.redirectedFrom } : {}) }, 'refused');
  }
  const kind = outcome.reason === 'timeout' ? 'timeout' : outcome.reason === 'aborted' ? 'cancelled' : 'error';
  const result = fail(lang, outcome.message, { url: outcome.url, reason: outcome.reason, blocked: outcome.blocked.count }, kind);
  const note = blockedNote(outcome.blocked, 0);
  return note ? { ...result, text: `${result.text}\n${pick(note, lang)}` } : result;
}
