import { isLang, pick, text, type Lang, type Text } from '../../common/i18n';

/**
 * A small, strict argument parser: unknown flags are errors (with a suggestion), because a typo in
 * `--aprove all` silently falling back to "no approver" would confuse an administrator.
 */
export interface ParsedArgs {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
  /** Every value given for each value flag, in order (for flags that may repeat, e.g. --checkpoint). */
  readonly values: Map<string, string[]>;
}

/** A mistake in how the command was typed; told in the language of --lang (issue 15, item 13). */
export class UsageError extends Error {
  constructor(readonly text: Text | string) {
    super(typeof text === 'string' ? text : text.en);
  }

  in(lang: Lang): string {
    return typeof this.text === 'string' ? this.text : pick(this.text, lang);
  }
}

/** The --lang a command line asks for, read before (or without) parsing it: usage errors need it too. */
export function langOfArgv(argv: readonly string[]): Lang {
  const i = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
  const value = i === -1 ? undefined : argv[i]!.includes('=') ? argv[i]!.slice('--lang='.length) : argv[i + 1];
  return isLang(value) ? value : 'ko';
}

export function parseArgs(argv: readonly string[], valueFlags: readonly string[], booleanFlags: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (booleanFlags.includes(name)) {
      if (eq !== -1) throw new UsageError(text(`--${name}에는 값을 주지 않습니다.`, `--${name} takes no value.`));
      flags.set(name, true);
    } else if (valueFlags.includes(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(text(`--${name}에는 값이 필요합니다.`, `--${name} needs a value.`));
      flags.set(name, value);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else {
      const known = [...valueFlags, ...booleanFlags].map((f) => `--${f}`);
      throw new UsageError(text(`알 수 없는 옵션 --${name}입니다. 쓸 수 있는 옵션: ${known.join(' ') || '(없음)'}.`, `Unknown option --${name}. Known options: ${known.join(' ') || '(none)'}.`));
    }
  }
  return { positional, flags, values };
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function flagStrings(args: ParsedArgs, name: string): readonly string[] {
  return args.values.get(name) ?? [];
}
