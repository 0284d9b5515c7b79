import type { ProgramRefusal } from '../../../common/process-capability';
import { refusal } from './messages';
import { pathApiFor, type ProgramFileView } from './program-files';
import { extensionOf, programNameProblem, WINDOWS_BATCH_EXTENSIONS, WINDOWS_PROGRAM_EXTENSIONS } from './program-name';

/**
 * Finds a whitelisted program in the policy's trusted folders (SPEC S-SHELL). Never the working
 * folder and never the PATH of the environment: a planted `git` in the workspace is not even looked
 * at. The first trusted folder holding an entry of that name decides, as PATH lookup would; if that
 * entry is unfit (a link out of the trusted folders, no execute bit, a batch file) the command is
 * refused rather than silently taken from a later folder, so what runs is always what a person
 * reading the policy would predict.
 */

export interface ProgramLookup {
  /** Absolute folders, in search order (policy shell.trustedDirs). */
  readonly trustedDirs: readonly string[];
  /** The policy's whitelist (shell.commands keys). */
  readonly commands: readonly string[];
  readonly view: ProgramFileView;
}

export interface LocatedProgram {
  readonly kind: 'located';
  readonly command: string;
  /** Trusted folder joined with the name (and, on Windows, the extension found). */
  readonly path: string;
  /** `path` with symlinks resolved; inside a trusted folder. */
  readonly realPath: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/** PATHEXT's default order for the two kinds we run, then the two we detect only to refuse. */
const WINDOWS_CANDIDATE_EXTENSIONS = [...WINDOWS_PROGRAM_EXTENSIONS, ...WINDOWS_BATCH_EXTENSIONS];

export async function locateProgram(command: string, lookup: ProgramLookup): Promise<LocatedProgram | ProgramRefusal> {
  const { view } = lookup;
  const platform = view.platform;
  const api = pathApiFor(platform);

  const syntax = programNameProblem(command, platform);
  if (syntax) return syntax;

  if (!lookup.commands.includes(command)) {
    return refusal('NOT_WHITELISTED', command, { allowed: [...lookup.commands].sort(), suggestion: whitelistNeighbour(command, lookup.commands) });
  }

  // Relative entries would depend on the current folder: ignored (fail closed). The policy loader
  // already refuses them; this keeps a hand-built policy from reintroducing the hole.
  const trustedDirs = lookup.trustedDirs.filter((dir) => api.isAbsolute(dir) && !(platform === 'win32' && /^[\\/](?![\\/])/.test(dir)));
  const realTrusted: string[] = [];
  for (const dir of trustedDirs) {
    const real = await view.realpath(dir);
    if (real !== null) realTrusted.push(real);
  }

  const names = platform === 'win32' && extensionOf(command) === '' ? WINDOWS_CANDIDATE_EXTENSIONS.map((ext) => command + ext) : [command];
  for (const dir of trustedDirs) {
    for (const name of names) {
      const file = api.join(dir, name);
      const found = await view.stat(file);
      if (found === null) continue;
      return judgeCandidate(command, file, found, realTrusted, lookup);
    }
  }
  return refusal('NOT_FOUND', command, { trustedDirs });
}

async function judgeCandidate(
  command: string,
  file: string,
  found: { readonly isFile: boolean; readonly mode: number; readonly size: number; readonly mtimeMs: number; readonly ino: number },
  realTrusted: readonly string[],
  { view }: ProgramLookup,
): Promise<LocatedProgram | ProgramRefusal> {
  const platform = view.platform;
  const api = pathApiFor(platform);
  const windows = platform === 'win32';
  const isBatch = (p: string): boolean => (WINDOWS_BATCH_EXTENSIONS as readonly string[]).includes(extensionOf(api.basename(p)));

  if (windows && isBatch(file)) return refusal('BATCH_FILE', command, { file });
  if (!found.isFile) return refusal('NOT_EXECUTABLE', command, { file });
  // Windows has no execute bit: the extension (.exe/.com, checked above and below) is what decides.
  if (!windows && ((found.mode & 0o111) === 0 || !(await view.canExecute(file)))) return refusal('NOT_EXECUTABLE', command, { file });

  const realPath = await view.realpath(file);
  if (realPath === null) return refusal('NOT_EXECUTABLE', command, { file });
  // A link in /usr/bin pointing into the workspace would run workspace code under a trusted name.
  if (!realTrusted.some((dir) => isInside(api, realPath, dir))) return refusal('OUTSIDE_TRUSTED_DIRS', command, { file, realPath });
  if (windows && isBatch(realPath)) return refusal('BATCH_FILE', command, { file: realPath });

  if (!windows) {
    // Anyone could swap a world-writable program (or one in a world-writable folder) between our
    // check and its next run: such a file is not "trusted" whatever folder it is in.
    const folder = await view.stat(api.dirname(realPath));
    if ((found.mode & 0o002) !== 0 || folder === null || (folder.mode & 0o002) !== 0) {
      return refusal('UNSAFE_PERMISSIONS', command, { realPath });
    }
  }
  return { kind: 'located', command, path: file, realPath, size: found.size, mtimeMs: found.mtimeMs, ino: found.ino };
}

function isInside(api: ReturnType<typeof pathApiFor>, child: string, dir: string): boolean {
  const rel = api.relative(dir, child); // path.win32.relative compares case-insensitively
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${api.sep}`) && !api.isAbsolute(rel);
}

/** 'Git' or 'git.exe' for a whitelisted 'git': the model meant it, but the match must be exact. */
function whitelistNeighbour(command: string, commands: readonly string[]): string | undefined {
  const plain = command.toLowerCase().replace(/\.(exe|com)$/, '');
  return commands.find((c) => c.toLowerCase() === plain);
}
