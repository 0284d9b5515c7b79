import { text } from '../../../../common/i18n';
import { grammarMessages as m } from './messages';
import { flag, parseOptions, PATH, valued } from './options';
import type { CommandGrammar, ProgramGrammar } from './types';

/**
 * tar, listing only: `tar -tvf archive.tar.gz [member …]`. Creating and extracting are archive.zip
 * and archive.unzip's work (every entry confined); tar itself would write wherever the archive
 * says, and its options run programs (--to-command, --checkpoint-action=exec, -I /
 * --use-compress-program, --rsh-command, -F / --info-script, --new-volume-script). The archive is
 * a confined path and always local: `--force-local` is added, so `host:file` never means rsh.
 * Old-style bundled options (`tar tvf x`) are refused: write them with a dash.
 */
const TAR: CommandGrammar = {
  options: [
    flag('t', 'list'),
    flag('v', 'verbose'),
    valued('f', ['file'], PATH),
    flag('z', 'gzip', 'gunzip', 'ungzip'),
    flag('j', 'bzip2'),
    flag('J', 'xz'),
    flag(undefined, 'wildcards', 'no-wildcards', 'anchored', 'no-anchored', 'ignore-case', 'numeric-owner', 'full-time', 'utc'),
  ],
  positional: 'text',
  doubleDash: true,
  required: [['-t', '--list'], ['-f', '--file']],
};

export const tarGrammar: ProgramGrammar = {
  program: 'tar',
  summary: text('tar: 목록 보기만', 'tar: list only'),
  check(args) {
    const first = args[0];
    if (first !== undefined && !first.startsWith('-')) return { ok: false, arg: first, reason: m.unknownOption('tar', first, `-${first}`) };
    const parsed = parseOptions('tar', TAR, args);
    if (!parsed.ok) return parsed;
    return { ok: true, paths: parsed.paths, argv: ['--force-local', ...args], repository: false };
  },
};
