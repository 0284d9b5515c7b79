import { text, type Text } from '../../electron/common/i18n';

/**
 * Per-program argument rules (SPEC S-SHELL: `git -c`, `git diff --ext-diff`, `find -exec`, `curl -o`
 * …; the policy's denyArgs plus the built-in ones). An argument is refused when it is
 *  - the denied argument itself (`-exec`, `--ext-diff`);
 *  - a long option with a value glued on (`--output=x`, `--config-env=…`);
 *  - an abbreviation of a denied long option (`--ext`, `--upload`): git's and curl's option parsers
 *    accept unambiguous prefixes, so `--ext-dif` would otherwise slip past `--ext-diff`;
 *  - a two-character short option with its value glued on (`-ccore.pager=sh`, `-o/tmp/x`), or
 *    inside a cluster of short options (`-sO` is `-s -O` to curl).
 * Conservative on purpose: refusing `git log -c` costs the model one retry, allowing `git -c` costs
 * the machine.
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
    // An abbreviation: at least two letters after the dashes, and a prefix of the denied option.
    return name.startsWith('--') && name.length >= 4 && rule.startsWith(name);
  }
  if (/^-[A-Za-z0-9]$/.test(rule)) {
    if (arg.startsWith(rule) && !arg.startsWith('--')) return true; // glued value: -ofile, -ccore.x=y
    return /^-[A-Za-z0-9]{2,}$/.test(arg) && arg.slice(1).includes(rule.slice(1)); // cluster: -sO
  }
  return false;
}

export function deniedArgumentText(command: string, found: { readonly arg: string; readonly rule: string }): Text {
  return text(
    `'${command}'에는 '${found.arg}' 인자를 쓸 수 없습니다(규칙 '${found.rule}': 다른 프로그램을 실행하거나 파일을 쓰게 하는 옵션). 이 옵션 없이 다시 시도하거나, 파일 작업은 filesystem 도구를 쓰세요.`,
    `'${command}' may not get the argument '${found.arg}' (rule '${found.rule}': it would run another program or write files). Try again without it, or use the filesystem tools for file work.`,
  );
}
