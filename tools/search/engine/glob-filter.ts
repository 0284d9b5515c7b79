import picomatch from 'picomatch';

/**
 * The `glob` filter of search.text, with the same reading as filesystem.search's namePattern (a
 * model should not need two glob dialects):
 * - no '/': matched against the file name alone ("*.txt" finds files at any depth);
 * - with '/': matched against the path below the searched folder ("docs/**\/*.md");
 * - no glob characters at all: names containing the word ("보고서" finds "3월 보고서.txt"), because
 *   small models often send the word the user said rather than a glob.
 * Case-insensitive: office files come as "A.TXT" and "a.txt" alike.
 */
export function globFilter(glob: string): (relativePath: string) => boolean {
  // Unicode-normalised (NFC) on both sides, as every file name match (docs/2026-12-03-names-match-nfc.md).
  const unified = glob.trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '').normalize('NFC');
  const hasSlash = unified.includes('/');
  if (!picomatch.scan(unified).isGlob) {
    const word = unified.toLowerCase();
    return (rel) => (hasSlash ? rel : baseName(rel)).normalize('NFC').toLowerCase().includes(word);
  }
  const match = picomatch(unified, { nocase: true, dot: true, basename: !hasSlash });
  return (rel) => match(rel.normalize('NFC'));
}

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

/** Path of `absolute` below `folder`, '/'-separated (both absolute, as the host returns them). */
export function relativeTo(folder: string, absolute: string): string {
  const f = folder.replace(/\\/g, '/');
  const a = absolute.replace(/\\/g, '/');
  const prefix = f.endsWith('/') ? f : `${f}/`;
  return a.startsWith(prefix) ? a.slice(prefix.length) : a;
}
