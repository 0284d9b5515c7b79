import { LONG_LINE, type LineHit } from './scan';

/** Characters shown before the match when a long line is cut (the rest of LONG_LINE follows it). */
const LEAD = 80;
const ELLIPSIS = '…';

// C0 controls other than tab, and DEL: terminal escapes or stray bytes a model should not see raw.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The line as shown: whole when short, otherwise LONG_LINE characters around the match with `…`
 * where it was cut (minified files have single lines of megabytes; one hit must not flood the
 * model's context).
 */
export function excerpt(hit: LineHit): string {
  const { text, span } = hit;
  let shown = text;
  if (text.length > LONG_LINE) {
    let from = Math.max(0, Math.min(span.start - LEAD, text.length - LONG_LINE));
    let to = Math.min(text.length, from + LONG_LINE);
    if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from++;
    if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to--;
    shown = (from > 0 ? ELLIPSIS : '') + text.slice(from, to) + (to < text.length ? ELLIPSIS : '');
  }
  return shown.replace(CONTROLS, ' ');
}

/**
 * ripgrep's layout is `path:LINE:text`; a finding is the `LINE:text` part, made where the file is
 * scanned (possibly on the host's reading worker, which has no display paths), and formatLine puts
 * the path in front. Joined into flat strings rather than concatenated: a template leaves a chain
 * of string objects per line, which the collector copies while the search holds its results (a
 * match-dense search keeps thousands): ~4 ms less collection per Korean benchmark search (16,888 lines).
 */
export function formatFinding(hit: LineHit): string {
  return [hit.line, excerpt(hit)].join(':');
}

export function formatLine(displayPath: string, finding: string): string {
  return [displayPath, finding].join(':');
}
