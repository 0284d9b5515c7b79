import { text } from '../../../../common/i18n';
import { grammarMessages as m } from './messages';
import { flag, INT, oneOf, parseOptions, TEXT, valued } from './options';
import type { CommandGrammar, OptionSpec, ProgramGrammar } from './types';

/**
 * git, read-only (issue 14 class 4). Subcommands that only read the repository, each with the
 * options that only change what is printed. Absent on purpose (not an exhaustive list — anything
 * not written here is refused): every global option (-C, -c, --git-dir, --work-tree, --exec-path,
 * --namespace, --config-env, -p), every subcommand that writes or talks to other programs (grep
 * -O, clone -u, difftool -x, rebase -x, config, init, fetch, submodule …), and within the listed
 * subcommands every option that writes a file (--output), reads a file named on the command line
 * outside the pathspec (-O<orderfile>, --contents, -S <revs-file>, --ignore-revs-file,
 * --exclude-from), runs a program (--ext-diff, --textconv, --show-signature) or leaves the
 * repository (--no-index).
 */

const COLOR = oneOf('always', 'never', 'auto');

/** Options of the diff machinery (diff, log -p, show). */
const DIFF_OUTPUT: readonly OptionSpec[] = [
  flag('p', 'patch'),
  flag('u'),
  flag('s', 'no-patch'),
  flag(undefined, 'raw', 'patch-with-raw', 'patch-with-stat', 'numstat', 'shortstat', 'summary', 'name-only', 'name-status', 'compact-summary'),
  valued(undefined, ['stat', 'dirstat'], TEXT, true),
  valued(undefined, ['stat-width', 'stat-name-width', 'stat-count', 'stat-graph-width'], INT),
  flag('z'),
  valued(undefined, ['color'], COLOR, true),
  flag(undefined, 'no-color'),
  valued(undefined, ['word-diff'], oneOf('color', 'plain', 'porcelain', 'none'), true),
  valued(undefined, ['color-words'], TEXT, true),
  flag('b', 'ignore-space-change'),
  flag('w', 'ignore-all-space'),
  flag(undefined, 'ignore-blank-lines', 'ignore-space-at-eol', 'ignore-cr-at-eol', 'minimal', 'patience', 'histogram'),
  valued('U', ['unified'], INT),
  valued(undefined, ['diff-algorithm'], oneOf('default', 'myers', 'minimal', 'patience', 'histogram')),
  valued('M', ['find-renames'], TEXT, true),
  valued(undefined, ['find-copies'], TEXT, true),
  flag(undefined, 'no-renames', 'find-copies-harder', 'full-index', 'binary', 'no-prefix', 'pickaxe-all', 'pickaxe-regex', 'check', 'exit-code', 'quiet'),
  flag('R'),
  flag('a', 'text'),
  flag('W', 'function-context'),
  valued(undefined, ['abbrev'], INT, true),
  valued(undefined, ['src-prefix', 'dst-prefix', 'diff-filter'], TEXT),
  valued('S', [], TEXT),
  valued('G', [], TEXT),
  valued('l', [], INT),
  flag(undefined, 'no-ext-diff', 'no-textconv', 'indent-heuristic', 'no-indent-heuristic'),
];

/** Revision walking and commit formatting (log, show, shortlog). */
const REVISIONS: readonly OptionSpec[] = [
  valued('n', ['max-count'], INT),
  valued(undefined, ['skip', 'max-parents', 'min-parents'], INT),
  valued(undefined, ['since', 'after', 'until', 'before', 'author', 'committer', 'grep', 'date', 'format'], TEXT),
  valued(undefined, ['pretty'], TEXT, true),
  valued(undefined, ['decorate'], oneOf('short', 'full', 'auto', 'no'), true),
  valued(undefined, ['branches', 'tags', 'remotes'], TEXT, true),
  valued(undefined, ['no-walk'], oneOf('sorted', 'unsorted'), true),
  flag('i', 'regexp-ignore-case'),
  flag('E', 'extended-regexp'),
  flag('F', 'fixed-strings'),
  flag('g', 'walk-reflogs'),
  flag(
    undefined,
    'all-match', 'invert-grep', 'merges', 'no-merges', 'first-parent', 'all', 'oneline', 'abbrev-commit', 'no-abbrev-commit',
    'no-decorate', 'graph', 'reverse', 'relative-date', 'follow', 'topo-order', 'date-order', 'author-date-order', 'left-right',
    'cherry-pick', 'cherry-mark', 'ancestry-path', 'simplify-by-decoration', 'full-history', 'boundary', 'parents', 'children',
    'source', 'log-size', 'use-mailmap', 'no-mailmap', 'cc', 'no-notes',
  ),
];

const sub = (options: readonly OptionSpec[], extra: Partial<CommandGrammar> = {}): CommandGrammar => ({
  options,
  positional: 'revs-or-paths',
  doubleDash: true,
  ...extra,
});

const LIST_FILTERS: readonly OptionSpec[] = [
  valued(undefined, ['contains', 'no-contains', 'merged', 'no-merged'], TEXT, true),
  valued(undefined, ['points-at', 'sort', 'format'], TEXT),
  valued(undefined, ['color'], COLOR, true),
  valued(undefined, ['column'], TEXT, true),
  flag(undefined, 'no-color', 'no-column'),
  flag('i', 'ignore-case'),
];

export const GIT_SUBCOMMANDS: Readonly<Record<string, CommandGrammar>> = {
  status: sub([
    flag('s', 'short'),
    flag('b', 'branch'),
    flag(undefined, 'show-stash', 'long', 'ahead-behind', 'no-ahead-behind', 'renames', 'no-renames', 'no-column'),
    flag('v', 'verbose'),
    valued(undefined, ['porcelain'], oneOf('v1', 'v2', '1', '2'), true),
    valued('u', ['untracked-files'], oneOf('no', 'normal', 'all'), true),
    valued(undefined, ['ignored'], oneOf('traditional', 'no', 'matching'), true),
    valued(undefined, ['column'], TEXT, true),
    valued(undefined, ['find-renames'], TEXT, true),
    flag('z'),
  ], { positional: 'paths' }),
  log: sub([...REVISIONS, ...DIFF_OUTPUT], { numericCount: true }),
  show: sub([...REVISIONS, ...DIFF_OUTPUT], { numericCount: true }),
  diff: sub([...DIFF_OUTPUT, flag(undefined, 'cached', 'staged', 'merge-base')]),
  blame: sub([
    valued('L', [], TEXT),
    flag('l'),
    flag('t'),
    flag('s'),
    flag('e', 'show-email'),
    flag('w'),
    flag('n', 'show-number'),
    flag('f', 'show-name'),
    flag('p', 'porcelain'),
    flag(undefined, 'line-porcelain', 'root', 'show-stats', 'first-parent', 'no-textconv'),
    valued(undefined, ['date', 'since', 'ignore-rev'], TEXT),
    valued('M', [], TEXT, true),
    valued('C', [], TEXT, true),
    valued(undefined, ['abbrev'], INT, true),
  ]),
  branch: sub(
    [...LIST_FILTERS, flag('l', 'list'), flag('a', 'all'), flag('r', 'remotes'), flag('v', 'verbose'), flag(undefined, 'show-current'), valued(undefined, ['abbrev'], INT, true), flag(undefined, 'no-abbrev')],
    { positional: 'text', doubleDash: false, positionalsNeed: ['--list', '-l'] },
  ),
  tag: sub([...LIST_FILTERS, flag('l', 'list'), valued('n', [], INT, true)], { positional: 'text', doubleDash: false, positionalsNeed: ['--list', '-l'] }),
  'rev-parse': sub([
    valued(undefined, ['abbrev-ref'], oneOf('strict', 'loose'), true),
    valued(undefined, ['short'], INT, true),
    valued(undefined, ['path-format'], oneOf('absolute', 'relative')),
    flag('q', 'quiet'),
    flag(
      undefined,
      'verify', 'show-toplevel', 'show-prefix', 'show-cdup', 'is-inside-work-tree', 'is-inside-git-dir', 'is-bare-repository',
      'is-shallow-repository', 'git-dir', 'absolute-git-dir', 'git-common-dir', 'symbolic', 'symbolic-full-name', 'all', 'branches', 'tags',
    ),
  ]),
  'ls-files': sub([
    flag('d', 'deleted'),
    flag('m', 'modified'),
    flag('o', 'others'),
    flag('i', 'ignored'),
    flag('s', 'stage'),
    flag('u', 'unmerged'),
    flag('k', 'killed'),
    flag('t'),
    flag('v'),
    flag('f'),
    flag('z'),
    flag(undefined, 'cached', 'directory', 'no-empty-directory', 'full-name', 'exclude-standard', 'error-unmatch', 'eol', 'deduplicate'),
    valued('x', ['exclude'], TEXT),
    valued(undefined, ['abbrev'], INT, true),
  ], { positional: 'paths' }),
  shortlog: sub([
    flag('n', 'numbered'),
    flag('s', 'summary'),
    flag('e', 'email'),
    valued(undefined, ['group', 'format', 'since', 'after', 'until', 'before', 'author'], TEXT),
    flag(undefined, 'all', 'no-merges', 'merges', 'first-parent'),
  ]),
  describe: sub([
    flag(undefined, 'tags', 'all', 'long', 'always', 'exact-match', 'first-parent', 'contains'),
    valued(undefined, ['abbrev', 'candidates'], INT),
    valued(undefined, ['match', 'exclude'], TEXT),
  ]),
};

/**
 * Added after the subcommand on every run: no external diff or textconv program (the attributes
 * that name them are agent-writable `.gitattributes`), submodules left alone (their configuration
 * was not inspected), status writing nothing.
 */
const INJECTED: Readonly<Record<string, readonly string[]>> = {
  status: ['--ignore-submodules=all'],
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=all'],
  log: ['--no-ext-diff', '--no-textconv'],
  show: ['--no-ext-diff', '--no-textconv'],
  blame: ['--no-textconv'],
};

export const gitGrammar: ProgramGrammar = {
  program: 'git',
  summary: text('git: 읽기 전용 하위 명령', 'git: read-only subcommands'),
  check(args) {
    if (args.length === 1 && (args[0] === '--version' || args[0] === 'version')) {
      return { ok: true, paths: [], argv: ['--version'], repository: false };
    }
    const [first, ...rest] = args;
    const allowed = Object.keys(GIT_SUBCOMMANDS);
    if (first === undefined) return { ok: false, arg: '', reason: m.unknownSubcommand('git', '', allowed) };
    if (first.startsWith('-')) return { ok: false, arg: first, reason: m.noGlobalOptions('git', first) };
    const grammar = Object.hasOwn(GIT_SUBCOMMANDS, first) ? GIT_SUBCOMMANDS[first] : undefined;
    if (!grammar) return { ok: false, arg: first, reason: m.unknownSubcommand('git', first, allowed) };
    const parsed = parseOptions(`git ${first}`, grammar, rest);
    if (!parsed.ok) return parsed;
    // `HEAD:인사/급여.txt` reads that path from a commit: the part after the colon is held to the
    // same rules as a path (taken from the working folder, near enough to the top for deny rules).
    const inRevisions =
      grammar.positional === 'revs-or-paths'
        ? parsed.positionals.flatMap((p) => {
            const colon = p.indexOf(':');
            const path = colon < 0 ? '' : p.slice(colon + 1).replace(/^[\\/]+/, '');
            return path === '' ? [] : [path];
          })
        : [];
    return { ok: true, paths: [...parsed.paths, ...inRevisions], argv: [first, ...(INJECTED[first] ?? []), ...rest], repository: true };
  },
};
