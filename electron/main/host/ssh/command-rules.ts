import { commandMatcher, hasShellMetacharacter } from '../../policy';

/**
 * Which command lines may be sent to a host. Unlike shell.execute there is no argv here: the SSH
 * protocol carries one string and the server hands it to the login shell, so everything the
 * shell would interpret has to be kept out before it leaves this machine.
 *
 * The rule, in order:
 *  1. Shell metacharacters (`; | & \` $ > < ( )`, line breaks) are refused anywhere, even in a
 *     line the administrator whitelisted: SPEC G-PERM says such a COMMAND never matches an allow
 *     rule, and one chained command could run anything.
 *  2. Control characters (tab, NUL, …) and empty or over-long lines are refused.
 *  3. The line must match an entry of the host's `commands` with the COMMAND pattern semantics of
 *     the permission layer (policy/patterns.ts commandMatcher): an exact line ("df -h"), or a
 *     prefix ending in `:*` ("tail -n 100:*" covers "tail -n 100 /var/log/app.log").
 *  4. What the model appended after such a prefix must be plain words: no quotes, backslashes,
 *     globs (`* ? [ ]`), `~`, braces, `#`, `!` or `^`. The administrator allowed a program with
 *     arguments, not a file-name pattern the remote shell expands (`cat /etc/*`) or quoting that
 *     changes where one argument ends. An exact entry may contain them: the administrator wrote
 *     that whole line knowing a shell reads it.
 */

/** OpenSSH sends the line in one packet; nothing an office worker needs is near this long. */
export const MAX_COMMAND_LENGTH = 4096;

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Characters a POSIX shell (or an old Bourne shell, for `^`) gives meaning inside one command. */
const SHELL_WORD_SPECIAL = /['"\\*?[\]{}~#!^]/;

export type CommandVerdict =
  | { readonly ok: true; readonly entry: string }
  | { readonly ok: false; readonly reason: 'invalid-command' | 'shell-metacharacter' | 'command-not-allowed' }
  | { readonly ok: false; readonly reason: 'unsafe-argument'; readonly entry: string };

export function checkRemoteCommand(command: string, allowed: readonly string[]): CommandVerdict {
  if (hasShellMetacharacter(command)) return { ok: false, reason: 'shell-metacharacter' };
  if (command.trim() === '' || command.length > MAX_COMMAND_LENGTH || CONTROL_CHARACTER.test(command)) {
    return { ok: false, reason: 'invalid-command' };
  }
  let unsafePrefix: string | null = null;
  for (const entry of allowed) {
    const matches = commandMatcher(entry);
    // An entry the pattern syntax cannot read allows nothing (fail closed).
    if (matches === null || !matches(command)) continue;
    const prefix = entry.endsWith(':*') ? entry.slice(0, -2) : null;
    if (prefix === null || command === prefix) return { ok: true, entry };
    if (!SHELL_WORD_SPECIAL.test(command.slice(prefix.length))) return { ok: true, entry };
    unsafePrefix ??= entry;
  }
  return unsafePrefix === null ? { ok: false, reason: 'command-not-allowed' } : { ok: false, reason: 'unsafe-argument', entry: unsafePrefix };
}
