import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHANGELOG_FILE, DIGEST_PREFIX, FROZEN_FILE, digestFile, readFrozen, toolSourceFiles } from './frozen-lib';

/**
 * `npm run tools:freeze -- "why the tools changed"`: re-pins every file under tools/ and appends one
 * changelog line per changed, new or removed file. Refuses to run without a reason.
 */
const root = resolve(import.meta.dirname, '..');
const reason = process.argv.slice(2).join(' ').trim();
const pinned = readFrozen(root);
const files = toolSourceFiles(root);
const next: Record<string, string> = {};
const lines: string[] = [];
const today = new Date().toISOString().slice(0, 10);
for (const file of files) {
  const digest = digestFile(root, file);
  next[file] = digest;
  if (pinned[file] !== digest) lines.push(`- ${today} ${file} ${digest.slice(0, DIGEST_PREFIX)} ${pinned[file] ? 'changed' : 'added'}: ${reason}`);
}
for (const file of Object.keys(pinned)) if (!(file in next)) lines.push(`- ${today} ${file} removed: ${reason}`);

if (lines.length === 0) {
  console.log('tools/ matches FROZEN.json; nothing to do.');
} else if (!reason) {
  console.error(`${lines.length} tool file(s) changed. Say why: npm run tools:freeze -- "reason"`);
  process.exitCode = 1;
} else {
  writeFileSync(join(root, FROZEN_FILE), `${JSON.stringify({ files: next }, null, 2)}\n`);
  const changelog = join(root, CHANGELOG_FILE);
  if (!existsSync(changelog)) writeFileSync(changelog, '# tools/ changelog\n\nOne line per change of a frozen tool file: date, file, digest prefix, why.\n\n');
  appendFileSync(changelog, `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
}
