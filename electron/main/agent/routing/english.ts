/**
 * English words for routing: lower case, a few inflections cut the same way on both sides (the
 * request and the tool cards), so "deleted", "deleting" and "delete" all become "delet". Not
 * Porter: only what office requests and Baram's keywords need.
 */
export function stemEnglish(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('ied') && w.length > 4) return w.slice(0, -3) + 'y';
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && !w.endsWith('ss')) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "running" → "runn" → "run"; "listing" → "list" is untouched (two different letters).
  if (w.length > 3 && w.at(-1) === w.at(-2) && !'lsz'.includes(w.at(-1)!)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Words that say nothing about which tool is meant. */
export const ENGLISH_STOP = new Set([
  'a', 'an', 'the', 'to', 'of', 'in', 'into', 'on', 'for', 'from', 'with', 'by', 'at', 'as', 'and', 'or', 'but',
  'me', 'my', 'i', 'you', 'your', 'we', 'our', 'us', 'it', 'its', 'this', 'that', 'these', 'those', 'there', 'them',
  'is', 'are', 'was', 'be', 'been', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'should', 'please', 'pleas',
  'what', 'which', 'who', 'how', 'where', 'when', 'all', 'any', 'some', 'each', 'every', 'one', 'then', 'also', 'just',
  'if', 'so', 'up', 'out', 'about', 'tell', 'give', 'let', 'get', 'have', 'has', 'need', 'want', 'now', 'here', 'e', 'g',
  'thi', 'than', 'only', 'not', 'no',
]);

/** Trailing words a cut-off English purpose should not end on ("Show details of a file or"). */
export const ENGLISH_DANGLING = new Set(['a', 'an', 'the', 'of', 'or', 'and', 'to', 'with', 'into', 'in', 'on', 'for', 'from', 'by', 'at']);
