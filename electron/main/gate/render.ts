import { pick, type Lang } from '../../common/i18n';
import { gateMessages } from './messages';

/**
 * Caps what the model sees. The marker goes AFTER the cut: cutting after appending would lose the
 * marker exactly when output is large (seed: tool-contract-hardening §3.3).
 */
export function capForModel(body: string, maxChars: number, lang: Lang): string {
  if (body.length <= maxChars) return body;
  // Do not split a surrogate pair at the cut.
  let cut = maxChars;
  const code = body.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${body.slice(0, cut)}\n${pick(gateMessages.truncated(cut, body.length), lang)}`;
}

/** The model's text of a tool result: the body cut to the budget, then the tool's marker line. */
export function renderResult(body: string, marker: string | undefined, maxChars: number, lang: Lang): string {
  const capped = capForModel(body, maxChars, lang);
  if (marker === undefined) return capped;
  return capped === '' ? marker : `${capped}\n${marker}`;
}
