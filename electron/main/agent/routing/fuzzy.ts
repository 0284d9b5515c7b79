/**
 * True when a and b are at most one edit apart (insert, delete, substitute, or swap of two
 * neighbours). Linear and allocation-free: the router asks this for many word pairs per turn.
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length, lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const sameFrom = (ai: number, bi: number) => {
    while (ai < la && bi < lb) if (a.charCodeAt(ai++) !== b.charCodeAt(bi++)) return false;
    return ai === la && bi === lb;
  };
  if (la === lb) {
    // substitution at i, or transposition of i and i+1
    if (sameFrom(i + 1, i + 1)) return true;
    return i + 1 < la && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(i + 2, i + 2);
  }
  return la > lb ? sameFrom(i + 1, i) : sameFrom(i, i + 1);
}
