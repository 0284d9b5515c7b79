import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The browser tools' tests drive Debian's Chromium (.ci/run installs it for the e2e tests as well).
 * Under CI=true a missing Chromium must fail the tests, not skip them; on a developer's machine
 * without it they are skipped with the reason printed.
 */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Each browser call starts a fresh Chromium (1–3 s here, several times that on a loaded 2-core CI
 * machine) and some tests make a few calls: more room than the suite's 30 s default. A limit, not
 * a timing assertion.
 */
export const BROWSER_TEST_TIMEOUT_MS = 120_000;

export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['CI'] === 'true') return true; // run anyway: the tests fail with "no browser found"
  console.warn(`browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium); under CI=true they fail instead`);
  return false;
}

/**
 * A wrapper that records each start (its pid, which is the browser's process-group and session id
 * since the host starts it with setsid, and its arguments) and then becomes Chromium (exec keeps the
 * pid). Named in the policy's browser.executablePath, it shows whether and how a browser started.
 */
export async function recordingBrowser(dir: string): Promise<{ path: string; starts(): Promise<Array<{ pid: number; args: string[] }>> }> {
  const log = join(dir, 'browser-starts.log');
  const path = join(dir, 'recording-chromium.sh');
  await writeFile(path, `#!/bin/sh\nprintf '%s\\t%s\\n' "$$" "$*" >> '${log}'\nexec '${CHROMIUM}' "$@"\n`);
  await chmod(path, 0o755);
  return {
    path,
    async starts() {
      const text = existsSync(log) ? await readFile(log, 'utf8') : '';
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => {
          const [pid, args] = l.split('\t');
          return { pid: Number(pid), args: (args ?? '').split(' ') };
        });
    },
  };
}

/** Live (not zombie) processes whose session id is `sid` (Linux /proc). */
export function sessionMembers(sid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && state !== 'X' && Number(session) === sid) members.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return members;
}
