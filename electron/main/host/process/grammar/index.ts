import { findGrammar } from './find';
import { gitGrammar } from './git';
import { hostnameGrammar } from './hostname';
import { pingGrammar } from './ping';
import { tarGrammar } from './tar';
import type { ProgramGrammar } from './types';

/**
 * The built-in grammars, by bare program name (docs/2026-12-03-programs-confined-by-grammar.md).
 * The shipped default policy whitelists only programs listed here.
 */
const GRAMMARS: Readonly<Record<string, ProgramGrammar>> = {
  git: gitGrammar,
  ping: pingGrammar,
  hostname: hostnameGrammar,
  find: findGrammar,
  tar: tarGrammar,
};

export function grammarFor(command: string, platform: NodeJS.Platform): ProgramGrammar | undefined {
  // Windows names are case-insensitive and may carry .exe ('Git.exe' is refused earlier, but judge it the same).
  const key = platform === 'win32' ? command.toLowerCase().replace(/\.(exe|com)$/, '') : command;
  return Object.hasOwn(GRAMMARS, key) ? GRAMMARS[key] : undefined;
}

export const GRAMMAR_PROGRAMS: readonly string[] = Object.keys(GRAMMARS);

export type { GrammarVerdict, ProgramGrammar } from './types';
export { grammarMessages } from './messages';
export { deniedArgument } from './deny-args';
