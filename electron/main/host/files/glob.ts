import type { Dirent } from 'node:fs';
import { FileAccessError, isFileAccessError } from '../../../common/file-access';
import type { Confiner } from './confine';
import { compareNames, isUnreadable, lstatOrNull, readDirectoryCheckedSync, resolveUnknownTypeSync, yieldEvery } from './entries';
import { fileError } from './errors';
import { compileGlob, GlobSyntaxError, hasGlobChars, splitGlobBase, type CompiledGlob } from './glob-match';

export const DEFAULT_MAX_MATCHES = 10_000;
// A model has no need for longer patterns; the bound keeps brace parsing and matching cheap.
const MAX_PATTERN_LENGTH = 1024;

/** Re-labels a confinement error so it names the pattern the caller gave, not our derived base. */
function aboutPattern(e: unknown, pattern: string): unknown {
  return isFileAccessError(e) ? new FileAccessError(e.code, pattern, `${e.code}: ${pattern}`) : e;
}

/**
 * Expands a glob (syntax in glob-match.ts) into existing entries — files and folders — sorted.
 * Only the pattern's static base folder is walked; symlinks are matched as entries but never
 * entered; dot-names match only when the pattern spells the dot. More than `maxMatches` →
 * TOO_LARGE: a partial expansion shown for approval would misstate what is about to happen.
 */
export async function globConfined(confiner: Confiner, pattern: string, maxMatches: number, skip?: (absolutePath: string) => boolean): Promise<string[]> {
  if (typeof pattern !== 'string' || pattern.trim() === '' || pattern.includes('\0')) {
    throw fileError('INVALID_PATH', String(pattern), 'empty pattern');
  }
  if (pattern.length > MAX_PATTERN_LENGTH) throw fileError('INVALID_PATH', pattern.slice(0, 80), 'pattern too long');
  const rules = confiner.rules;
  // A backslash is a separator in a pattern as in a path, on every platform (2022\IMG_*.jpg; see
  // docs/2026-12-02-backslash-is-a-separator.md), so it escapes nothing: a literal '*' is '[*]'.
  const options = { nocase: rules.windows, escapes: false };
  const normalized = pattern.replace(/\\/g, '/');

  // A name that exists as written wins, glob characters or not: "[2024] 보고서.xlsx" is a file
  // name in many offices, and deleting it must not mean deleting "2 보고서.xlsx".
  const negated = normalized.startsWith('!') && hasGlobChars(normalized.slice(1), options);
  if (!negated) {
    const literal = await literalEntry(confiner, pattern);
    if (literal !== null) return [literal];
    if (!hasGlobChars(normalized, options)) return [];
  }

  const { base, rest } = splitGlobBase(negated ? normalized.slice(1) : normalized, options);
  if (rest.split('/').some((segment) => segment === '..')) {
    throw fileError('INVALID_PATH', pattern, "'..' inside the wildcard part");
  }
  let glob: CompiledGlob;
  try {
    glob = compileGlob(negated ? `!${rest}` : rest, options);
  } catch (e) {
    if (e instanceof GlobSyntaxError) throw fileError('INVALID_PATH', pattern, e.message);
    throw e;
  }

  let baseDir: string;
  try {
    baseDir = (await confiner.target(base === '' ? '.' : base)).path;
  } catch (e) {
    throw aboutPattern(e, pattern);
  }
  const baseStat = await lstatOrNull(baseDir, pattern);
  if (baseStat === null || !baseStat.isDirectory()) return [];

  const matches: string[] = [];
  const api = rules.api;
  // Synchronous calls, the event loop handed back every 256 folders (see walk.ts).
  const pause = yieldEvery(256);

  async function visit(dir: string, relDir: string, depth: number): Promise<void> {
    let dirents: Dirent[] | null;
    try {
      await pause();
      dirents = readDirectoryCheckedSync(dir, confiner);
    } catch (e) {
      if (isUnreadable(e)) return;
      throw e;
    }
    if (dirents === null) return;
    dirents.sort((a, b) => compareNames(a.name, b.name));
    const checkProtected = confiner.hasProtectedWithin(dir);
    for (const dirent of dirents) {
      const child = api.join(dir, dirent.name);
      if (checkProtected && confiner.isProtected(child)) continue;
      if (skip !== undefined && skip(child)) continue;
      const rel = relDir === '' ? dirent.name : `${relDir}/${dirent.name}`;
      if (glob.match(rel)) {
        matches.push(child);
        if (matches.length > maxMatches) throw fileError('TOO_LARGE', pattern, `more than ${maxMatches} matches`);
      }
      if (depth + 1 >= glob.maxDepth) continue;
      if (!glob.namesHidden && dirent.name.startsWith('.')) continue;
      if (resolveUnknownTypeSync(dirent, child) === 'directory') await visit(child, rel, depth + 1);
    }
  }

  await visit(baseDir, '', 0);
  return matches.sort(compareNames);
}

/** The entry at the pattern read as a plain path, or null (also when it cannot be a path). */
async function literalEntry(confiner: Confiner, pattern: string): Promise<string | null> {
  let entry;
  try {
    entry = await confiner.entry(pattern);
  } catch (e) {
    // Glob characters are not allowed in Windows names; then it simply is not a literal path.
    if (isFileAccessError(e) && e.code === 'INVALID_PATH' && hasGlobChars(pattern, { escapes: false })) return null;
    throw e;
  }
  return (await lstatOrNull(entry.path, pattern)) === null ? null : entry.path;
}
