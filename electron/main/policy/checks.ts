import { jsonPath, type PathSegment } from './json-path';
import { expandHome, pathApi } from './paths';
import { parseRule, unknownToolMessage } from './rule-syntax';
import type { PolicyProblem } from './types';

/**
 * Checks a schema cannot express, shared by the policy file and user settings. Each returns
 * problems located by JSON path, like schema errors.
 */

/** Every rule string in `lists` is `tool` or `tool(pattern)`; with known tools, names a real tool. */
export function ruleProblems(
  lists: Readonly<Record<string, readonly string[] | undefined>>,
  base: readonly PathSegment[],
  knownTools: readonly string[] | undefined,
): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  for (const [list, rules] of Object.entries(lists)) {
    (rules ?? []).forEach((text, i) => {
      const path = jsonPath([...base, list, i]);
      const parsed = parseRule(text);
      if (!parsed.ok) problems.push({ path, message: parsed.message });
      else if (knownTools) {
        const unknown = unknownToolMessage(parsed.rule, knownTools);
        if (unknown) problems.push({ path, message: unknown });
      }
    });
  }
  return problems;
}

export type DirCheck = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/**
 * A folder written in a policy: absolute or `~/…`, normalised. Relative folders would depend on
 * where the app was started, so they are refused rather than guessed.
 */
export function absoluteDir(raw: string, home: string, platform: NodeJS.Platform): DirCheck {
  const api = pathApi(platform);
  const expanded = expandHome(raw, home, platform);
  const example = platform === 'win32' ? "'C:\\\\Baram' or '~/Documents/Baram'" : "'/srv/baram' or '~/Documents/Baram'";
  if (expanded.includes('\u0000')) return { ok: false, message: 'The folder contains a NUL character; remove it.' };
  if (expanded.startsWith('~')) {
    return { ok: false, message: `'${raw}': only your own home can be written as ~ (~/…); write other folders in full, e.g. ${example}.` };
  }
  const driveRelative = platform === 'win32' && /^(?:[A-Za-z]:(?![\\/])|[\\/](?![\\/]))/.test(expanded);
  if (!api.isAbsolute(expanded) || driveRelative) {
    return { ok: false, message: `'${raw}' is not an absolute folder. Write it in full, e.g. ${example}.` };
  }
  const normal = api.normalize(expanded);
  const root = api.parse(normal).root;
  return { ok: true, path: normal.length > root.length ? normal.replace(/[\\/]+$/, '') : normal };
}

/** Checks a list of folders, returning the normalised ones and a problem per bad entry. */
export function dirListProblems(
  raws: readonly string[] | undefined,
  base: readonly PathSegment[],
  home: string,
  platform: NodeJS.Platform,
): { dirs: string[]; problems: PolicyProblem[] } {
  const dirs: string[] = [];
  const problems: PolicyProblem[] = [];
  (raws ?? []).forEach((raw, i) => {
    const checked = absoluteDir(raw, home, platform);
    if (checked.ok) dirs.push(checked.path);
    else problems.push({ path: jsonPath([...base, i]), message: checked.message });
  });
  return { dirs, problems };
}
