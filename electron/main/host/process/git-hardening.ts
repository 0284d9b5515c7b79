import { execFile } from 'node:child_process';
import { pathApiFor } from './program-files';

/**
 * What git reads (issue 14 class 1; docs/2026-12-03-programs-confined-by-grammar.md). git takes
 * its behaviour from configuration, and several keys name programs it runs on a read-only command
 * (`core.fsmonitor` on `git status`, `core.pager`, `diff.external`, filter drivers selected by an
 * agent-writable `.gitattributes`, `gpg.program` for `%G?`). So every git run:
 *  - ignores the system and global configuration and the user's attributes (environment);
 *  - overrides every program-naming key in "command" scope (GIT_CONFIG_COUNT/KEY/VALUE: the scope
 *    of `-c`, above every file, inherited by the git processes git starts, and free of `-c`'s
 *    split at the first '=' — a driver name may contain '=');
 *  - neutralises each filter and diff driver the repository's configuration defines (their names
 *    are open-ended, so they are read from the repository first: `listDrivers`);
 *  - runs only in a repository whose work tree, git directory and common directory the caller has
 *    confined (`probeRepository`).
 */

const NULL_DEVICE = (platform: NodeJS.Platform): string => (platform === 'win32' ? 'NUL' : '/dev/null');

/** Configuration forced on every git run; `''` disables a program-valued key. */
export function hardenedConfig(platform: NodeJS.Platform): [string, string][] {
  const none = NULL_DEVICE(platform);
  return [
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', none],
    ['core.pager', 'cat'],
    ['core.editor', ':'],
    ['sequence.editor', ':'],
    ['core.askPass', ''],
    ['core.sshCommand', ''],
    ['core.gitProxy', ''],
    ['core.attributesFile', none],
    ['core.excludesFile', none],
    ['core.alternateRefsCommand', ''],
    ['credential.helper', ''],
    ['diff.external', ''],
    ['diff.submodule', 'short'],
    ['gpg.program', none],
    ['gpg.ssh.program', none],
    ['gpg.x509.program', none],
    ['log.showSignature', 'false'],
    ['protocol.allow', 'never'],
    ['submodule.recurse', 'false'],
    ['status.submoduleSummary', 'false'],
    // A folder that merely looks like a bare repository (HEAD, objects/, refs/, config) is not one:
    // an agent-written `config` there would be read as repository configuration.
    ['safe.bareRepository', 'explicit'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['uploadpack.packObjectsHook', ''],
  ];
}

/** Keys that neutralise one filter driver (git runs no filter whose command is empty: convert.c apply_filter). */
function filterOverrides(name: string): [string, string][] {
  return [
    [`filter.${name}.process`, ''],
    [`filter.${name}.clean`, ''],
    [`filter.${name}.smudge`, ''],
    [`filter.${name}.required`, 'false'],
  ];
}

function diffDriverOverrides(name: string): [string, string][] {
  return [
    [`diff.${name}.textconv`, ''],
    [`diff.${name}.command`, ''],
    [`diff.${name}.cachetextconv`, 'false'],
  ];
}

export interface GitDrivers {
  readonly filters: readonly string[];
  readonly diffs: readonly string[];
}

/** The environment of every git run: `base` (the whitelist) without any GIT_* variable, plus the hardening. */
export function hardenedGitEnv(
  base: Readonly<Record<string, string>>,
  options: { readonly platform: NodeJS.Platform; readonly roots: readonly string[]; readonly drivers?: GitDrivers },
): Record<string, string> {
  const { platform } = options;
  const upper = (k: string): string => (platform === 'win32' ? k.toUpperCase() : k);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    const key = upper(k);
    // GIT_DIR, GIT_WORK_TREE, GIT_CONFIG*, GIT_EXEC_PATH, GIT_SSH*, GIT_PAGER, GIT_EXTERNAL_DIFF …:
    // an administrator's whitelist entry must not carry any of them into a confined run.
    if (key.startsWith('GIT_') || key === 'HOME' || key === 'XDG_CONFIG_HOME' || key === 'PAGER' || key === 'EDITOR' || key === 'VISUAL' || key === 'USERPROFILE') continue;
    env[k] = v;
  }
  const api = pathApiFor(platform);
  // A HOME that does not exist: no ~/.gitconfig, ~/.config/git/{config,attributes,ignore}, ~/.netrc.
  const nowhere = platform === 'win32' ? 'C:\\nonexistent\\baram-git-home' : '/nonexistent/baram-git-home';
  env['HOME'] = nowhere;
  env['XDG_CONFIG_HOME'] = nowhere;
  if (platform === 'win32') env['USERPROFILE'] = nowhere;
  env['GIT_CONFIG_NOSYSTEM'] = '1';
  env['GIT_CONFIG_GLOBAL'] = NULL_DEVICE(platform);
  env['GIT_CONFIG_SYSTEM'] = NULL_DEVICE(platform);
  env['GIT_ATTR_NOSYSTEM'] = '1';
  env['GIT_TERMINAL_PROMPT'] = '0';
  env['GIT_OPTIONAL_LOCKS'] = '0';
  env['GIT_PAGER'] = 'cat';
  env['PAGER'] = 'cat';
  env['GIT_NO_REPLACE_OBJECTS'] = '1';
  env['GIT_PROTOCOL_FROM_USER'] = '0';
  // A path argument means the path the confinement judged, nothing more: no globs (`secre*` would
  // reach a denied `secret/` that the literal name does not), no pathspec magic (`:(top)`, `:!x`),
  // and a name like `[최종]보고서.docx` matches only itself.
  env['GIT_LITERAL_PATHSPECS'] = '1';
  // Discovery never climbs above a root: the parents of the roots are ceilings.
  const ceilings = [...new Set(options.roots.map((r) => api.dirname(r)))];
  env['GIT_CEILING_DIRECTORIES'] = ceilings.join(api.delimiter);
  const config = [
    ...hardenedConfig(platform),
    ...(options.drivers?.filters ?? []).flatMap(filterOverrides),
    ...(options.drivers?.diffs ?? []).flatMap(diffDriverOverrides),
  ];
  env['GIT_CONFIG_COUNT'] = String(config.length);
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** Put before every subcommand (the hardening does not depend on the subcommand honouring the env). */
export const GIT_PREFIX: readonly string[] = ['--no-pager'];

interface ProbeResult {
  readonly code: number;
  readonly stdout: string;
}

function run(file: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      [...GIT_PREFIX, ...args],
      { cwd, env, timeout: 15_000, maxBuffer: 4 * 1024 * 1024, windowsHide: true, encoding: 'buffer', killSignal: 'SIGKILL' },
      (error, stdout) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : -1) : 0;
        resolve({ code, stdout: Buffer.from(stdout).toString('utf8') });
      },
    );
    child.stdin?.end(); // nothing to read: an `include.path = /dev/stdin` reads end of file
  });
}

/**
 * The filter and diff drivers the repository's configuration defines (local, worktree and
 * included files; system and global are already ignored). Listed NUL-separated, so a driver name
 * with a newline or '=' is still one name.
 */
export async function listDrivers(file: string, cwd: string, env: Record<string, string>): Promise<GitDrivers | null> {
  const listed = await run(file, ['config', '--list', '--name-only', '-z'], cwd, env);
  // Exit 1 with nothing listed: no configuration at all.
  if (listed.code !== 0 && listed.stdout !== '') return null;
  const filters = new Set<string>();
  const diffs = new Set<string>();
  for (const name of listed.stdout.split('\0')) {
    const first = name.indexOf('.');
    const last = name.lastIndexOf('.');
    if (first < 0 || last <= first) continue;
    const section = name.slice(0, first).toLowerCase();
    const driver = name.slice(first + 1, last);
    if (section === 'filter') filters.add(driver);
    else if (section === 'diff') diffs.add(driver);
  }
  return { filters: [...filters], diffs: [...diffs] };
}

export interface RepositoryPlaces {
  readonly gitDir: string;
  readonly commonDir: string;
  readonly topLevel: string;
}

/** Where the repository of `cwd` lives, as git itself resolves it (gitfile, commondir, core.worktree). null: not in a work tree. */
export async function probeRepository(file: string, cwd: string, env: Record<string, string>): Promise<RepositoryPlaces | null> {
  const probed = await run(file, ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-toplevel'], cwd, env);
  if (probed.code !== 0) return null;
  const lines = probed.stdout.split(/\r?\n/).filter((l) => l !== '');
  if (lines.length !== 3) return null;
  const [gitDir, commonDir, topLevel] = lines as [string, string, string];
  return { gitDir, commonDir, topLevel };
}
