import type { ProgramRefusal } from '../../../common/process-capability';
import { refusal } from './messages';

/**
 * The syntax of a program name (SPEC S-SHELL): a bare name, resolved later in the trusted folders
 * only. Each refusal names the one thing to change, because a small model repairs its call from the
 * message alone (SPEC G-SIGNPOST). Checked before the whitelist, so './git' is told to drop the
 * './' rather than that './git' is not allowed.
 */

/** Windows executables we start directly; CreateProcess runs nothing else without an interpreter. */
export const WINDOWS_PROGRAM_EXTENSIONS = ['.com', '.exe'] as const;
/** Run by cmd.exe, which re-parses the arguments: CVE-2024-27980 ("BatBadBut") class of injection. */
export const WINDOWS_BATCH_EXTENSIONS = ['.bat', '.cmd'] as const;

/** `FOO=1` or `FOO=1 git …`: how a shell sets a variable for one command. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Characters a shell would interpret. With no shell they would reach the OS literally, which is never what the caller meant. */
const SHELL_CHARACTERS = /[|&;<>()$`*?[\]{}!~'"#%^]/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const WHITESPACE = /\s/;
/** Names Windows maps to devices whatever the folder or extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** A refusal, or null when `name` is a well-formed bare program name for `platform`. */
export function programNameProblem(name: string, platform: NodeJS.Platform): ProgramRefusal | null {
  if (name.trim() === '') return refusal('EMPTY', name, {});
  if (CONTROL.test(name)) return refusal('INVALID_CHARACTERS', name, {});
  if (ASSIGNMENT.test(name)) return refusal('ENVIRONMENT_ASSIGNMENT', name, {});
  // ':' too: 'C:git.exe' is drive-relative on Windows and 'git.exe:stream' an NTFS stream.
  if (/[\\/:]/.test(name)) return refusal('PATH_SEPARATOR', name, { suggestion: bareName(name) });
  if (WHITESPACE.test(name)) {
    const [program = '', ...args] = name.trim().split(/\s+/);
    return refusal('ARGUMENTS_IN_NAME', name, { suggestion: program, args });
  }
  if (SHELL_CHARACTERS.test(name)) return refusal('SHELL_SYNTAX', name, {});
  if (name === '.' || name === '..') return refusal('INVALID_NAME', name, {});
  if (platform === 'win32') {
    // Windows drops trailing dots and spaces when it opens a file: 'run.bat.' would open run.bat.
    if (/[. ]$/.test(name) || WINDOWS_DEVICE.test(name)) return refusal('INVALID_NAME', name, {});
    const ext = extensionOf(name);
    if ((WINDOWS_BATCH_EXTENSIONS as readonly string[]).includes(ext)) return refusal('BATCH_FILE', name, { file: name });
    if (ext !== '' && !(WINDOWS_PROGRAM_EXTENSIONS as readonly string[]).includes(ext)) return refusal('NOT_A_PROGRAM', name, {});
  }
  return null;
}

/** Lower-case extension with its dot ('.exe'), or '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** 'C:\\x\\git.exe' → 'git', './git' → 'git': the name the caller should have written. */
function bareName(name: string): string {
  const last = name.split(/[\\/:]/).filter((part) => part !== '').pop() ?? '';
  return last.replace(/\.(exe|com)$/i, '');
}
