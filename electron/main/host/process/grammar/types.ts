import type { Text } from '../../../../common/i18n';

/**
 * Program grammars (docs/2026-12-03-programs-confined-by-grammar.md): what a whitelisted program
 * may be told. An allowlist: a subcommand, option or argument kind that is not written down here is
 * refused, whatever its spelling.
 */

/** The kind of value an option takes, or of a positional argument. */
export type ValueKind =
  | { readonly kind: 'int'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'number'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  /** Printed or matched by the program only (a format, a pattern, a date, a revision). */
  | { readonly kind: 'text' }
  /** A file or folder the program reads: held to the roots and protected paths like file tools. */
  | { readonly kind: 'path' }
  /** A host name or address (letters, digits, '.', '-', ':'; never starting with '-'). */
  | { readonly kind: 'host' };

export interface OptionSpec {
  /** Full long names without the dashes ('porcelain'); accepted only in exactly this spelling. */
  readonly long?: readonly string[];
  /** One letter ('s'); may be clustered (-sb) and take its value glued (-n5) or separate (-n 5). */
  readonly short?: string;
  /** Absent: a flag. */
  readonly value?: ValueKind;
  /** The value is optional: given only glued to a short option (-uno) or after '=' (--porcelain=v2). */
  readonly optional?: boolean;
}

export type PositionalKind =
  | 'none'
  /** Files or folders (confined). */
  | 'paths'
  /** git: a revision or a path; each is held to the roots as a path (a revision resolves inside the working folder). */
  | 'revs-or-paths'
  | 'host'
  /** Printed or matched only (a branch-name pattern, an archive member name). */
  | 'text';

export interface CommandGrammar {
  readonly options: readonly OptionSpec[];
  readonly positional: PositionalKind;
  readonly minPositionals?: number;
  readonly maxPositionals?: number;
  /** `-5` as `-n 5` (git log). */
  readonly numericCount?: boolean;
  /** Whether `--` may end the options (git: yes; ping: no). */
  readonly doubleDash?: boolean;
  /** Options that must be present (tar --list). Each entry: alternative spellings, one required. */
  readonly required?: readonly (readonly string[])[];
  /** Positionals are accepted only when one of these options is present (git branch --list). */
  readonly positionalsNeed?: readonly string[];
}

/** What the checker returns: refused (with the argument and why), or what to confine and run. */
export type GrammarVerdict =
  | {
      readonly ok: true;
      /** Path-like arguments as written (relative to the working folder); the host confines each. */
      readonly paths: readonly string[];
      /** The arguments to run (the program's own hardening added). */
      readonly argv: readonly string[];
      /** git: the repository must be probed and confined before running. */
      readonly repository: boolean;
    }
  | { readonly ok: false; readonly arg: string; readonly reason: Text };

export interface ProgramGrammar {
  readonly program: string;
  /** One line for the docs and the refusal message: what the program is for here. */
  readonly summary: Text;
  check(args: readonly string[], platform: NodeJS.Platform): GrammarVerdict;
}
