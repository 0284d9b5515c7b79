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

export class UsageError extends Error {}

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
      if (eq !== -1) throw new UsageError(`--${name} takes no value.`);
      flags.set(name, true);
    } else if (valueFlags.includes(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value.`);
      flags.set(name, value);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else {
      const known = [...valueFlags, ...booleanFlags].map((f) => `--${f}`);
      throw new UsageError(`Unknown option --${name}. Known options: ${known.join(' ') || '(none)'}.`);
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
