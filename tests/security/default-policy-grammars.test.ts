import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { grammarFor } from '../../electron/main/host/process/grammar';
import { builtinPolicy } from '../../electron/main/policy';
import { parsePolicyText } from '../../electron/main/policy/load';

/**
 * Issue 14 class 1/4 and SPEC S-SHELL: the shipped defaults whitelist only programs that have a
 * grammar, and auto-allow only command lines their grammar accepts. On the old code the shipped
 * policy's git entry relied on a denylist (`denyArgs: ["--no-index"]`) and there were no grammars.
 */
const text = readFileSync(new URL('../../resources/default-policy.jsonc', import.meta.url), 'utf8');

function shellAllowRules(rules: readonly string[]): string[][] {
  return rules
    .map((r) => /^shell\.execute\((.*)\)$/.exec(r)?.[1])
    .filter((p): p is string => p !== undefined)
    .map((p) => p.replace(/:\*$/, '').split(' '));
}

describe('the shipped defaults whitelist only programs with a grammar', () => {
  it('resources/default-policy.jsonc', () => {
    const loaded = parsePolicyText(text, '/home/kim', { platform: 'linux' });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const commands = Object.keys(loaded.value.shell.commands);
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect({ c, grammar: grammarFor(c, 'linux') !== undefined }).toEqual({ c, grammar: true });
    for (const [program, ...args] of shellAllowRules(loaded.value.rules.allow)) {
      const grammar = grammarFor(program as string, 'linux');
      expect(grammar, `allow rule for ${program}`).toBeDefined();
      expect(grammar?.check(args, 'linux').ok, `allow rule ${program} ${args.join(' ')}`).toBe(true);
    }
  });

  it('the built-in policy (no policy file)', () => {
    for (const platform of ['linux', 'win32'] as const) {
      for (const c of Object.keys(builtinPolicy('/home/kim', platform).shell.commands)) expect(grammarFor(c, platform), c).toBeDefined();
    }
  });
});
