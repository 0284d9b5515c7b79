/**
 * True when a and b are at most one edit apart (insert, delete, substitute, or swap of two
 * neighbours). Linear, allocation- and closure-free: the router asks this for many word pairs
 * per turn.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length, lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    // substitution at i, or transposition of i and i+1
    if (sameFrom(a, b, i + 1, i + 1)) return true;
    return i + 1 < la && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, b, i + 2, i + 2);
  }
  return la > lb ? sameFrom(a, b, i + 1, i) : sameFrom(a, b, i, i + 1);
}

/** a from ai and b from bi are the same text to their ends. */
function sameFrom(a: string, b: string, ai: number, bi: number): boolean {
  if (a.length - ai !== b.length - bi) return false;
  while (ai < a.length) if (a.charCodeAt(ai++) !== b.charCodeAt(bi++)) return false;
  return true;
}
