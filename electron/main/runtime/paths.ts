import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the administrator's policy lives (SPEC §8). */
export function adminPolicyPath(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? join(process.env.ProgramData ?? 'C:\\ProgramData', 'Baram', 'policy.json') : '/etc/baram/policy.json';
}

export function adminPolicyIfPresent(): string | undefined {
  const p = adminPolicyPath();
  return existsSync(p) ? p : undefined;
}

/** Baram's own data (audit ledger, trash, settings): outside every workspace, never reachable by tools. */
export function defaultDataDir(platform: NodeJS.Platform = process.platform): string {
  if (process.env.BARAM_DATA_DIR) return process.env.BARAM_DATA_DIR;
  if (platform === 'win32') return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Baram');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'baram');
}
