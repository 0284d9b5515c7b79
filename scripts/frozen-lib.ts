import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * SPEC F-FROZEN: tools are a safety surface (risk level, approval text and audit depend on them),
 * so every source file under tools/ is pinned by SHA-256 in tools/FROZEN.json, and every pinned
 * digest needs a line in tools/CHANGELOG.md saying why it changed. "A small fix" to a tool is a
 * reviewed, recorded event — `git blame` answers why a tool behaves as it does.
 */
export const FROZEN_FILE = join('tools', 'FROZEN.json');
export const CHANGELOG_FILE = join('tools', 'CHANGELOG.md');
/** Digest prefix a changelog line must quote. */
export const DIGEST_PREFIX = 12;

export interface FrozenProblem {
  readonly file: string;
  readonly problem: 'unpinned' | 'changed' | 'stale-entry' | 'no-changelog-line';
}

export function toolSourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) out.push(relative(root, full).split('\\').join('/'));
    }
  };
  walk(join(root, 'tools'));
  return out;
}

export function digestFile(root: string, file: string): string {
  return createHash('sha256').update(readFileSync(join(root, file))).digest('hex');
}

export function readFrozen(root: string): Record<string, string> {
  const path = join(root, FROZEN_FILE);
  if (!existsSync(path)) return {};
  return (JSON.parse(readFileSync(path, 'utf8')) as { files: Record<string, string> }).files;
}

export function checkFrozen(root: string): FrozenProblem[] {
  const pinned = readFrozen(root);
  const changelog = existsSync(join(root, CHANGELOG_FILE)) ? readFileSync(join(root, CHANGELOG_FILE), 'utf8').split('\n') : [];
  const problems: FrozenProblem[] = [];
  const files = toolSourceFiles(root);
  for (const file of files) {
    const digest = digestFile(root, file);
    const recorded = pinned[file];
    if (recorded === undefined) problems.push({ file, problem: 'unpinned' });
    else if (recorded !== digest) problems.push({ file, problem: 'changed' });
    else if (!changelog.some((line) => line.includes(file) && line.includes(digest.slice(0, DIGEST_PREFIX)))) {
      problems.push({ file, problem: 'no-changelog-line' });
    }
  }
  for (const file of Object.keys(pinned)) if (!files.includes(file)) problems.push({ file, problem: 'stale-entry' });
  return problems;
}
