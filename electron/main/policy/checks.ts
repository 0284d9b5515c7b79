import { text, type Text } from '../../common/i18n';
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

export type DirCheck = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: Text };

/**
 * A folder (or file) written in a policy: absolute or `~/…`, normalised. Relative paths would
 * depend on where the app was started, so they are refused rather than guessed.
 */
export function absoluteDir(raw: string, home: string, platform: NodeJS.Platform, kind: 'folder' | 'file' = 'folder'): DirCheck {
  const api = pathApi(platform);
  const expanded = expandHome(raw, home, platform);
  const example = platform === 'win32' ? "'C:\\\\Baram' or '~/Documents/Baram'" : "'/srv/baram' or '~/Documents/Baram'";
  const exampleKo = example.replace(' or ', ' 또는 ');
  const noun = kind === 'folder' ? { ko: '폴더', en: 'folder' } : { ko: '파일', en: 'file' };
  if (expanded.includes('\u0000')) return { ok: false, message: text(`${noun.ko} 경로에 NUL 문자가 있습니다. 지우세요.`, `The ${noun.en} contains a NUL character; remove it.`) };
  if (expanded.startsWith('~')) {
    return {
      ok: false,
      message: text(
        `'${raw}': ~로는 자기 홈 폴더(~/…)만 쓸 수 있습니다. 다른 ${noun.ko}는 전체 경로로 쓰세요. 예: ${exampleKo}.`,
        `'${raw}': only your own home can be written as ~ (~/…); write other ${noun.en}s in full, e.g. ${example}.`,
      ),
    };
  }
  const driveRelative = platform === 'win32' && /^(?:[A-Za-z]:(?![\\/])|[\\/](?![\\/]))/.test(expanded);
  if (!api.isAbsolute(expanded) || driveRelative) {
    return {
      ok: false,
      message: text(`'${raw}'은(는) 절대 경로가 아닙니다. 전체 경로로 쓰세요. 예: ${exampleKo}.`, `'${raw}' is not an absolute ${noun.en}. Write it in full, e.g. ${example}.`),
    };
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
