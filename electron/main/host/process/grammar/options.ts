import type { Text } from '../../../../common/i18n';
import { grammarMessages as m } from './messages';
import type { CommandGrammar, OptionSpec, ValueKind } from './types';

/**
 * The option parser shared by the grammars: getopt/parse-options spellings, allowlist semantics.
 *  - `--name`, `--name=value`, `--name value`: only full names listed in the grammar. git,
 *    getopt_long and GNU tar expand unambiguous abbreviations; Baram does not accept them, so no
 *    abbreviation can turn into an option nobody reviewed (`--upload` → `--upload-pack`).
 *  - `-abc`: a cluster of listed letters; a letter that takes a value ends the cluster and takes the
 *    rest (`-n5`, `-uno`) or, when the rest is empty and the value is not optional, the next argument.
 *  - `--` ends the options when the grammar allows it; after it every argument is a positional.
 */

export type Parsed =
  | { readonly ok: true; readonly positionals: readonly string[]; readonly paths: readonly string[]; readonly seen: ReadonlySet<string> }
  | { readonly ok: false; readonly arg: string; readonly reason: Text };

const HOST = /^[A-Za-z0-9_.:%-]{1,253}$/;

function longOf(grammar: CommandGrammar, name: string): OptionSpec | undefined {
  return grammar.options.find((o) => o.long?.includes(name));
}

function shortOf(grammar: CommandGrammar, letter: string): OptionSpec | undefined {
  return grammar.options.find((o) => o.short === letter);
}

/** Every spelling of an option, for `seen` (required options, positionalsNeed). */
function namesOf(spec: OptionSpec): string[] {
  return [...(spec.long ?? []).map((l) => `--${l}`), ...(spec.short ? [`-${spec.short}`] : [])];
}

export function describeKind(kind: ValueKind): string {
  switch (kind.kind) {
    case 'int':
      return `a whole number${kind.min !== undefined ? ` ≥ ${kind.min}` : ''}${kind.max !== undefined ? ` ≤ ${kind.max}` : ''}`;
    case 'number':
      return `a number${kind.min !== undefined ? ` ≥ ${kind.min}` : ''}${kind.max !== undefined ? ` ≤ ${kind.max}` : ''}`;
    case 'enum':
      return `one of ${kind.values.join(', ')}`;
    case 'text':
      return 'text';
    case 'path':
      return 'a path inside the workspace';
    case 'host':
      return 'a host name or address';
  }
}

/** null when the value fits; otherwise what was expected. */
export function valueProblem(kind: ValueKind, value: string): string | null {
  switch (kind.kind) {
    case 'int': {
      if (!/^[+-]?\d{1,9}$/.test(value)) return describeKind(kind);
      const n = Number(value);
      return (kind.min !== undefined && n < kind.min) || (kind.max !== undefined && n > kind.max) ? describeKind(kind) : null;
    }
    case 'number': {
      if (!/^\d{1,9}(\.\d{1,6})?$/.test(value)) return describeKind(kind);
      const n = Number(value);
      return (kind.min !== undefined && n < kind.min) || (kind.max !== undefined && n > kind.max) ? describeKind(kind) : null;
    }
    case 'enum':
      return kind.values.includes(value) ? null : describeKind(kind);
    case 'text':
      return null;
    case 'path':
      // '-' is standard input or output to most programs; an empty path is the working folder to some.
      return value === '' || value === '-' ? describeKind(kind) : null;
    case 'host':
      return HOST.test(value) && !value.startsWith('-') ? null : describeKind(kind);
  }
}

export function parseOptions(where: string, grammar: CommandGrammar, args: readonly string[]): Parsed {
  const positionals: string[] = [];
  const paths: string[] = [];
  const seen = new Set<string>();
  const take = (spec: OptionSpec, arg: string, value: string): Text | null => {
    const kind = spec.value;
    if (!kind) return null;
    const problem = valueProblem(kind, value);
    if (problem) return m.badValue(where, arg, value, problem);
    if (kind.kind === 'path') paths.push(value);
    return null;
  };
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (optionsEnded || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      if (!grammar.doubleDash) return { ok: false, arg, reason: m.unknownOption(where, arg) };
      optionsEnded = true;
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const spec = longOf(grammar, name);
      if (!spec) {
        const full = grammar.options.flatMap((o) => o.long ?? []).filter((l) => name.length > 0 && l.startsWith(name));
        if (full.length === 1) return { ok: false, arg, reason: m.abbreviation(where, arg, `--${full[0]}`) };
        return { ok: false, arg, reason: m.unknownOption(where, arg) };
      }
      namesOf(spec).forEach((n) => seen.add(n));
      if (!spec.value) {
        if (eq >= 0) return { ok: false, arg, reason: m.noValue(where, arg) };
        continue;
      }
      let value: string;
      if (eq >= 0) value = arg.slice(eq + 1);
      else if (spec.optional) continue;
      else if (i + 1 < args.length) value = args[++i] as string;
      else return { ok: false, arg, reason: m.missingValue(where, arg) };
      const problem = take(spec, arg, value);
      if (problem) return { ok: false, arg, reason: problem };
      continue;
    }
    // Short options: `-5` (a count), or a cluster of letters.
    if (grammar.numericCount && /^-\d{1,9}$/.test(arg)) continue;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      const spec = shortOf(grammar, letter);
      if (!spec) {
        const suggestion = spec === undefined && arg.length > 2 && longOf(grammar, arg.slice(1)) ? `-${arg}` : undefined;
        return { ok: false, arg, reason: m.unknownOption(where, j === 1 && arg.length === 2 ? arg : `${arg} (-${letter})`, suggestion) };
      }
      namesOf(spec).forEach((n) => seen.add(n));
      if (!spec.value) continue;
      const rest = arg.slice(j + 1);
      let value: string;
      if (rest !== '') value = rest;
      else if (spec.optional) break;
      else if (i + 1 < args.length) value = args[++i] as string;
      else return { ok: false, arg, reason: m.missingValue(where, arg) };
      const problem = take(spec, `-${letter}`, value);
      if (problem) return { ok: false, arg, reason: problem };
      break;
    }
  }
  for (const alternatives of grammar.required ?? []) {
    if (!alternatives.some((a) => seen.has(a))) return { ok: false, arg: '', reason: m.requiredOption(where, alternatives) };
  }
  if (positionals.length > 0) {
    const first = positionals[0] as string;
    if (grammar.positional === 'none') return { ok: false, arg: first, reason: m.noPositionals(where, first) };
    if (grammar.positionalsNeed && !grammar.positionalsNeed.some((o) => seen.has(o))) {
      return { ok: false, arg: first, reason: m.positionalsNeed(where, first, grammar.positionalsNeed) };
    }
  }
  if (grammar.maxPositionals !== undefined && positionals.length > grammar.maxPositionals) {
    const extra = positionals[grammar.maxPositionals] as string;
    return { ok: false, arg: extra, reason: m.tooManyPositionals(where, extra, grammar.maxPositionals) };
  }
  if (grammar.minPositionals !== undefined && positionals.length < grammar.minPositionals) {
    return { ok: false, arg: '', reason: m.tooFewPositionals(where, grammar.minPositionals) };
  }
  for (const p of positionals) {
    switch (grammar.positional) {
      case 'paths':
      case 'revs-or-paths':
        if (p === '' || p === '-') return { ok: false, arg: p, reason: m.badValue(where, p, p, 'a path inside the workspace') };
        paths.push(p);
        break;
      case 'host':
        if (valueProblem({ kind: 'host' }, p)) return { ok: false, arg: p, reason: m.badHost(where, p) };
        break;
      case 'text':
      case 'none':
        break;
    }
  }
  return { ok: true, positionals, paths, seen };
}

/** Shorthands for writing grammars. */
export const flag = (short: string | undefined, ...long: string[]): OptionSpec => ({ ...(short ? { short } : {}), long });
export const valued = (short: string | undefined, long: readonly string[], value: ValueKind, optional = false): OptionSpec => ({
  ...(short ? { short } : {}),
  long,
  value,
  ...(optional ? { optional } : {}),
});
export const TEXT: ValueKind = { kind: 'text' };
export const PATH: ValueKind = { kind: 'path' };
export const INT: ValueKind = { kind: 'int', min: 0 };
export const oneOf = (...values: string[]): ValueKind => ({ kind: 'enum', values });
