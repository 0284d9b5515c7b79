/**
 * The administrator's own narrowing (policy `shell.commands.<name>.denyArgs`): arguments a
 * whitelisted program may not get even where its grammar allows them. Not a defence on its own —
 * the grammar is (a denylist always has an alias around it) — so it is matched generously: the
 * argument itself, `--opt=value`, an abbreviation of a denied long option, a short option with a
 * value glued on (`-ofile`) or inside a cluster (`-sO`). Moved here from tools/shell/deny-args.ts.
 */
export function deniedArgument(args: readonly string[], denied: readonly string[]): { readonly arg: string; readonly rule: string } | undefined {
  for (const arg of args) {
    for (const rule of denied) {
      if (matchesRule(arg, rule)) return { arg, rule };
    }
  }
  return undefined;
}

function matchesRule(arg: string, rule: string): boolean {
  if (arg === rule) return true;
  if (rule.startsWith('--')) {
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (name === rule) return true;
    return name.startsWith('--') && name.length >= 4 && rule.startsWith(name);
  }
  if (/^-[A-Za-z0-9]$/.test(rule)) {
    if (arg.startsWith(rule) && !arg.startsWith('--')) return true;
    return /^-[A-Za-z0-9]{2,}$/.test(arg) && arg.slice(1).includes(rule.slice(1));
  }
  return false;
}
