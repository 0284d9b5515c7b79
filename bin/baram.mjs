#!/usr/bin/env node
// Entry of the `baram` command. Runs the built JavaScript in out/cli/ (scripts/build-cli.mjs, which
// `npm ci` runs as `prepare`) when it is there and no source that went into it changed since;
// otherwise, in a checkout being worked on, the TypeScript sources through tsx, as before, with a
// note on stderr. Either way only this checkout's (or this installation's) code runs: nothing is
// looked up on a registry. Why: docs/2026-12-03-cli-ships-built.md.
import { readFileSync, statSync } from 'node:fs';

const project = new URL('../', import.meta.url);
const built = new URL('out/cli/baram.js', project);

/** null when out/cli is current; otherwise why not, for the note. */
function staleness() {
  let info;
  try {
    info = JSON.parse(readFileSync(new URL('out/cli/build-info.json', project), 'utf8'));
    statSync(built);
  } catch {
    return 'not built';
  }
  // ~200 stats, ~2 ms. A source that is gone is not a reason: an installation may ship only out/
  // (and in a checkout, deleting a module means editing the file that imported it).
  for (const source of info.sources) {
    let mtime;
    try {
      mtime = statSync(new URL(source, project)).mtimeMs;
    } catch {
      continue;
    }
    if (mtime > info.builtAt) return `older than ${source}`;
  }
  return null;
}

const why = process.env.BARAM_CLI === 'sources' ? 'BARAM_CLI=sources' : staleness();
let main;
if (why === null) {
  if (process.env.BARAM_DEBUG) process.stderr.write('baram: running out/cli/baram.js\n');
  ({ main } = await import(built.href));
} else {
  if (why !== 'BARAM_CLI=sources') process.stderr.write(`baram: out/cli is ${why}; running the TypeScript sources (slower start; \`npm run build:cli\` makes it fast)\n`);
  else if (process.env.BARAM_DEBUG) process.stderr.write('baram: running the TypeScript sources (BARAM_CLI=sources)\n');
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../electron/main/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
