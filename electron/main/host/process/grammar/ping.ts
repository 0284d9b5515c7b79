import { text } from '../../../../common/i18n';
import { flag, parseOptions, valued } from './options';
import type { CommandGrammar, ProgramGrammar } from './types';

/**
 * ping: reach one host, a bounded number of times. Not accepted: flood (-f), broadcast (-b),
 * preload (-l), an interface or source address (-I), a payload pattern (-p), marks and QoS bits
 * (-m, -Q), and an interval below 0.2 s (what iputils allows an unprivileged user; root could flood).
 */
const POSIX: CommandGrammar = {
  options: [
    valued('c', [], { kind: 'int', min: 1, max: 1000 }),
    valued('i', [], { kind: 'number', min: 0.2, max: 60 }),
    valued('W', [], { kind: 'number', min: 0, max: 60 }),
    valued('w', [], { kind: 'int', min: 1, max: 600 }),
    valued('s', [], { kind: 'int', min: 0, max: 65507 }),
    valued('t', [], { kind: 'int', min: 1, max: 255 }),
    flag('n'),
    flag('q'),
    flag('v'),
    flag('4'),
    flag('6'),
    flag('D'),
    flag('O'),
    flag('a'),
  ],
  positional: 'host',
  minPositionals: 1,
  maxPositionals: 1,
};

/** Windows ping.exe: -n count, -w timeout (ms), -l size, -i TTL, -4/-6, -a (resolve names). */
const WINDOWS: CommandGrammar = {
  options: [
    valued('n', [], { kind: 'int', min: 1, max: 1000 }),
    valued('w', [], { kind: 'int', min: 1, max: 600_000 }),
    valued('l', [], { kind: 'int', min: 0, max: 65500 }),
    valued('i', [], { kind: 'int', min: 1, max: 255 }),
    flag('4'),
    flag('6'),
    flag('a'),
  ],
  positional: 'host',
  minPositionals: 1,
  maxPositionals: 1,
};

export const pingGrammar: ProgramGrammar = {
  program: 'ping',
  summary: text('ping: 호스트 하나에 정해진 횟수만큼', 'ping: one host, a bounded number of times'),
  check(args, platform) {
    const parsed = parseOptions('ping', platform === 'win32' ? WINDOWS : POSIX, args);
    if (!parsed.ok) return parsed;
    return { ok: true, paths: [], argv: [...args], repository: false };
  },
};
