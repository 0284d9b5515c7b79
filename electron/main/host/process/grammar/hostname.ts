import { text } from '../../../../common/i18n';
import { flag, parseOptions } from './options';
import type { CommandGrammar, ProgramGrammar } from './types';

/**
 * hostname: show the name, never set it. A positional NAME sets the host name when the program runs
 * as root (issue 14), and -F/--file reads the new name from a file; -b/--boot sets it too. Only the
 * query flags are accepted, in full spelling (the Linux program's getopt_long would expand
 * `--fi` to `--file`).
 */
const HOSTNAME: CommandGrammar = {
  options: [
    flag('s', 'short'),
    flag('f', 'fqdn', 'long'),
    flag('d', 'domain'),
    flag('i', 'ip-address'),
    flag('I', 'all-ip-addresses'),
    flag('A', 'all-fqdns'),
    flag('a', 'alias'),
    flag('V', 'version'),
  ],
  positional: 'none',
};

const NOTHING: CommandGrammar = { options: [], positional: 'none' };

export const hostnameGrammar: ProgramGrammar = {
  program: 'hostname',
  summary: text('hostname: 이름 보기만', 'hostname: show the name only'),
  check(args, platform) {
    // Windows hostname.exe takes no argument at all (any argument tries to set the name).
    const parsed = parseOptions('hostname', platform === 'win32' ? NOTHING : HOSTNAME, args);
    if (!parsed.ok) return parsed;
    return { ok: true, paths: [], argv: [...args], repository: false };
  },
};
