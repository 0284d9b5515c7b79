import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { fileError, isErrno } from './errors';
import type { PathRules } from './path-rules';

/**
 * File names are compared Unicode-normalised (NFC): a Mac or a zip file writes 휴가계.hwp
 * decomposed (NFD), a keyboard types it composed, and both must name the same file
 * (docs/2026-12-03-names-match-nfc.md). The file keeps its real name on disk: this module finds
 * the spelling the disk uses for what was typed.
 */

/** The form names are compared (and shown) in. */
export function nfc(s: string): string {
  return s.normalize('NFC');
}

/**
 * True when no other spelling of `name` normalises to the same NFC form, so the disk can be asked
 * about `name` directly (one lstat, no directory read). Only three non-ASCII code points normalise
 * to ASCII (U+037E → ';', U+1FEF → '`', U+212A KELVIN SIGN → 'K'; checked over all of Unicode by
 * tests/unit/host/spelling.test.ts), so an ASCII name without those three characters has no twin.
 */
export function hasNoTwin(name: string): boolean {
  return /^[\u0000-\u007f]*$/.test(name) && !/[;`K]/.test(name);
}

/** A name as the disk spells it, and whether that entry is a symbolic link. */
export interface Spelled {
  readonly name: string;
  readonly link: boolean;
}

/**
 * The name in `dir` that the disk uses for `name`: `name` itself, another spelling of it, or null
 * when there is none (a path to be created keeps the typed spelling). Two entries that normalise
 * alike (휴가계.hwp typed on a keyboard next to one from a Mac) make the name AMBIGUOUS — even when
 * one of them is spelled exactly as typed: the person approving sees two identical names and could
 * not tell which one a tool would act on.
 */
export function diskSpelling(dir: string, name: string, rules: PathRules, given: string): Spelled | null {
  let found: string | undefined = name;
  if (!hasNoTwin(name)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      if (isErrno(e, 'ENOENT', 'ENOTDIR')) return null;
      throw fileError('IO', given, isErrno(e) ? e.code : undefined);
    }
    const wanted = rules.nameKey(name);
    const same = names.filter((n) => rules.nameKey(n) === wanted);
    if (same.length > 1) throw fileError('AMBIGUOUS', given, `${same.length} names differ only in Unicode normalisation`);
    found = same[0];
  }
  if (found === undefined) return null;
  const st = lstatOrNull(rules.api.join(dir, found), given);
  return st === null ? null : { name: found, link: st.isSymbolicLink() };
}

function lstatOrNull(p: string, given: string): Stats | null {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch (e) {
    if (isErrno(e, 'ENOENT', 'ENOTDIR')) return null;
    throw fileError('IO', given, isErrno(e) ? e.code : undefined);
  }
}
