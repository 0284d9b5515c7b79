import { pathApiFor } from './program-files';

/**
 * The environment of every child process: built from the policy's whitelist only (SPEC S-SHELL),
 * never inherited. Tokens, proxies (HTTPS_PROXY), NODE_OPTIONS, LD_PRELOAD, GIT_* … stay out
 * unless an administrator lists them.
 *
 * Whitelist entries are exact names ('LANG') or a prefix ending in '*' ('LC_*'). A lone '*' would
 * pass everything, so it matches nothing (the policy loader should refuse it; this fails closed).
 *
 * PATH, when whitelisted, is NOT copied: it becomes the trusted folders. The parent's PATH may
 * hold '.', an empty entry (= the current folder) or the workspace, and a whitelisted program that
 * starts helpers by name (git → ssh, gpg, pager) would then run a planted helper from the
 * workspace. The same folders that resolve the program resolve its helpers.
 */
export interface ChildEnvOptions {
  readonly whitelist: readonly string[];
  readonly source: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly trustedDirs: readonly string[];
}

export function buildChildEnv({ whitelist, source, platform, trustedDirs }: ChildEnvOptions): Record<string, string> {
  // Windows variable names are case-insensitive ('Path', 'SystemRoot'); POSIX names are not.
  const fold = (name: string): string => (platform === 'win32' ? name.toUpperCase() : name);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of whitelist) {
    if (entry.endsWith('*')) {
      const prefix = entry.slice(0, -1);
      if (prefix !== '' && !prefix.includes('*')) prefixes.push(fold(prefix));
    } else if (entry !== '' && !entry.includes('=')) {
      exact.add(fold(entry));
    }
  }
  const passes = (name: string): boolean => {
    const key = fold(name);
    return exact.has(key) || prefixes.some((p) => key.startsWith(p));
  };

  const env: Record<string, string> = {};
  let pathKey: string | null = null;
  // Looked up by name where that is exact (POSIX, no prefix entries): reading every variable of
  // process.env goes through a getter per name, ≈40 µs per run for nothing.
  const names = platform !== 'win32' && prefixes.length === 0 ? [...exact] : Object.keys(source);
  for (const name of names) {
    const value = source[name];
    if (value === undefined || name === '' || name.includes('=') || !passes(name)) continue;
    if (fold(name) === 'PATH') {
      pathKey ??= name;
      continue;
    }
    env[name] = value;
  }
  if (passes('PATH')) {
    const api = pathApiFor(platform);
    env[pathKey ?? 'PATH'] = trustedDirs.filter((dir) => api.isAbsolute(dir)).join(api.delimiter);
  }
  return env;
}
