import { text } from '../../../../common/i18n';
import { grammarMessages as m } from './messages';
import { valueProblem } from './options';
import type { ProgramGrammar, ValueKind } from './types';

/**
 * find (GNU and BSD): starting points (confined paths), then an expression of tests, operators and
 * printing actions. Not accepted: -exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0,
 * -fprintf, -fls (run programs or write files), -L, -H, -follow (follow links out of the roots),
 * -files0-from, -D, -newerXY, -samefile, -context, and everything else not listed.
 */
const TIME = { kind: 'int' } as const;
const WITH_VALUE: Readonly<Record<string, ValueKind>> = {
  '-name': { kind: 'text' },
  '-iname': { kind: 'text' },
  '-path': { kind: 'text' },
  '-ipath': { kind: 'text' },
  '-wholename': { kind: 'text' },
  '-iwholename': { kind: 'text' },
  '-lname': { kind: 'text' },
  '-ilname': { kind: 'text' },
  '-regex': { kind: 'text' },
  '-iregex': { kind: 'text' },
  '-regextype': { kind: 'enum', values: ['findutils-default', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'] },
  '-type': { kind: 'text' },
  '-xtype': { kind: 'text' },
  '-maxdepth': { kind: 'int', min: 0, max: 10000 },
  '-mindepth': { kind: 'int', min: 0, max: 10000 },
  '-size': { kind: 'text' },
  '-mtime': TIME,
  '-atime': TIME,
  '-ctime': TIME,
  '-mmin': TIME,
  '-amin': TIME,
  '-cmin': TIME,
  '-links': TIME,
  '-newer': { kind: 'path' },
  '-anewer': { kind: 'path' },
  '-cnewer': { kind: 'path' },
  '-user': { kind: 'text' },
  '-group': { kind: 'text' },
  '-perm': { kind: 'text' },
  '-printf': { kind: 'text' },
};
const FLAGS = new Set([
  '-empty', '-readable', '-writable', '-executable', '-true', '-false', '-print', '-print0', '-ls', '-prune', '-quit',
  '-depth', '-d', '-xdev', '-mount', '-nouser', '-nogroup', '-noleaf', '-daystart', '-ignore_readdir_race',
  '!', '-not', '-a', '-and', '-o', '-or', '(', ')', ',',
]);

const SIZE = /^[+-]?\d{1,12}[bcwkMG]?$/;
const TYPES = /^[fdlbcpsD](,[fdlbcpsD])*$/;

export const findGrammar: ProgramGrammar = {
  program: 'find',
  summary: text('find: 찾기와 출력만', 'find: match and print only'),
  check(args) {
    const paths: string[] = [];
    let i = 0;
    // Leading options: only -P (never follow links, the default).
    while (i < args.length && args[i] === '-P') i++;
    // Starting points: up to the first expression token.
    while (i < args.length) {
      const a = args[i] as string;
      if (a.startsWith('-') || a === '!' || a === '(' || a === ')' || a === ',') break;
      if (a === '') return { ok: false, arg: a, reason: m.badValue('find', a, a, 'a path inside the workspace') };
      paths.push(a);
      i++;
    }
    for (; i < args.length; i++) {
      const a = args[i] as string;
      if (FLAGS.has(a)) continue;
      const kind = Object.hasOwn(WITH_VALUE, a) ? WITH_VALUE[a] : undefined;
      if (!kind) return { ok: false, arg: a, reason: m.unknownOption('find', a) };
      const value = args[i + 1];
      if (value === undefined) return { ok: false, arg: a, reason: m.missingValue('find', a) };
      i++;
      let problem = valueProblem(kind, value);
      if (!problem && a === '-size' && !SIZE.test(value)) problem = 'a size such as +10M';
      if (!problem && (a === '-type' || a === '-xtype') && !TYPES.test(value)) problem = 'f, d, l, b, c, p, s or D';
      if (problem) return { ok: false, arg: a, reason: m.badValue('find', a, value, problem) };
      if (kind.kind === 'path') paths.push(value);
    }
    // No starting point: find searches '.', the working folder (the host confined it already).
    return { ok: true, paths, argv: [...args], repository: false };
  },
};
