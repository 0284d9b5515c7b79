/**
 * Readers of git's machine-readable output (docs/2026-12-03-git-tools.md). Each takes the text
 * the process capability captured and returns plain records; nothing here runs anything. Paths
 * come from NUL-separated fields (`-z`), which git never quotes, so a Korean name arrives as it is
 * whatever `core.quotePath` says. Unrecognised lines (a warning git wrote to stderr, which the
 * capture merges in) are skipped, not guessed at.
 */

export interface StatusBranch {
  readonly head?: string;
  readonly oid?: string;
  readonly upstream?: string;
  readonly ahead?: number;
  readonly behind?: number;
}

export type StatusEntry =
  | { readonly kind: 'changed'; readonly staged: string; readonly unstaged: string; readonly path: string }
  | { readonly kind: 'renamed'; readonly staged: string; readonly unstaged: string; readonly path: string; readonly from: string; readonly copy: boolean }
  | { readonly kind: 'unmerged'; readonly path: string }
  | { readonly kind: 'untracked'; readonly path: string };

/** `git status --porcelain=v2 -z --branch` (git-status(1), "Porcelain Format Version 2"). */
export function parseStatus(out: string): { readonly branch: StatusBranch; readonly entries: readonly StatusEntry[] } {
  const fields = out.split('\0');
  const branch: { head?: string; oid?: string; upstream?: string; ahead?: number; behind?: number } = {};
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    if (f.startsWith('# branch.head ')) branch.head = f.slice(14);
    else if (f.startsWith('# branch.oid ')) branch.oid = f.slice(13);
    else if (f.startsWith('# branch.upstream ')) branch.upstream = f.slice(18);
    else if (f.startsWith('# branch.ab ')) {
      const ab = /^\+(\d+) -(\d+)$/.exec(f.slice(12));
      if (ab) {
        branch.ahead = Number(ab[1]);
        branch.behind = Number(ab[2]);
      }
    } else if (f.startsWith('1 ')) {
      // 1 XY sub mH mI mW hH hI path
      const parts = splitFields(f, 9);
      if (parts) entries.push({ kind: 'changed', staged: parts[1]![0]!, unstaged: parts[1]![1]!, path: parts[8]! });
    } else if (f.startsWith('2 ')) {
      // 2 XY sub mH mI mW hH hI Xscore path, then the original path as the next field
      const parts = splitFields(f, 10);
      const from = fields[i + 1];
      if (parts && from !== undefined) {
        entries.push({ kind: 'renamed', staged: parts[1]![0]!, unstaged: parts[1]![1]!, path: parts[9]!, from, copy: parts[8]!.startsWith('C') });
        i++;
      }
    } else if (f.startsWith('u ')) {
      const parts = splitFields(f, 11);
      if (parts) entries.push({ kind: 'unmerged', path: parts[10]! });
    } else if (f.startsWith('? ')) entries.push({ kind: 'untracked', path: f.slice(2) });
  }
  return { branch, entries };
}

/** The first `count - 1` space-separated fields, and the rest (a path may contain spaces) as the last. */
function splitFields(line: string, count: number): string[] | null {
  const parts: string[] = [];
  let rest = line;
  for (let k = 0; k < count - 1; k++) {
    const sp = rest.indexOf(' ');
    if (sp < 0) return null;
    parts.push(rest.slice(0, sp));
    rest = rest.slice(sp + 1);
  }
  parts.push(rest);
  return parts;
}

export interface ChangedFile {
  readonly path: string;
  /** Set for a rename or copy: the path before. */
  readonly from?: string;
  readonly added: number;
  readonly deleted: number;
  readonly binary: boolean;
}

/**
 * `--numstat -z` records (`added\tdeleted\tpath\0`, or `added\tdeleted\t\0from\0to\0` for a
 * rename; `-\t-` for a binary file), then, when `-p` was given too, an empty field and the patch.
 * The patch's per-file sections come in the same order as the records (one diff queue feeds
 * both); they are returned without their headers, whose names git quotes, so the records' names
 * are the ones shown. `sections` is null when the patch cannot be matched to the records.
 */
export function parseNumstatPatch(out: string, start = 0): { readonly files: readonly ChangedFile[]; readonly sections: readonly string[] | null; readonly patchSeen: boolean } {
  const files: ChangedFile[] = [];
  let pos = start;
  let patch = '';
  for (;;) {
    const end = out.indexOf('\0', pos);
    if (end < 0) {
      patch = out.slice(pos);
      break;
    }
    const field = out.slice(pos, end);
    if (field === '' || field === '\n') {
      patch = out.slice(end + 1);
      break;
    }
    const m = /^\n?(\d+|-)\t(\d+|-)\t(.*)$/s.exec(field);
    if (!m) {
      patch = out.slice(pos);
      break;
    }
    const binary = m[1] === '-';
    const added = binary ? 0 : Number(m[1]);
    const deleted = binary ? 0 : Number(m[2]);
    if (m[3] === '') {
      const fromEnd = out.indexOf('\0', end + 1);
      const toEnd = fromEnd < 0 ? -1 : out.indexOf('\0', fromEnd + 1);
      if (toEnd < 0) break;
      files.push({ from: out.slice(end + 1, fromEnd), path: out.slice(fromEnd + 1, toEnd), added, deleted, binary });
      pos = toEnd + 1;
    } else {
      files.push({ path: m[3] as string, added, deleted, binary });
      pos = end + 1;
    }
  }
  const patchSeen = /^diff --(git|cc|combined) /m.test(patch);
  if (!patchSeen) return { files, sections: files.length === 0 ? [] : null, patchSeen };
  const sections = splitPatch(patch);
  return { files, sections: sections.length === files.length ? sections : null, patchSeen };
}

/** Each file's patch: from its first hunk (`@@`) or its summary line (`Binary files …`), headers dropped. */
function splitPatch(patch: string): string[] {
  const lines = patch.split('\n');
  const sections: string[][] = [];
  let current: string[] | null = null;
  let inHunk = false;
  for (const line of lines) {
    if (/^diff --(git|cc|combined) /.test(line)) {
      current = [];
      sections.push(current);
      inHunk = false;
      continue;
    }
    if (current === null) continue;
    if (!inHunk) {
      if (line.startsWith('@@')) inHunk = true;
      else if (/^(old|new|deleted file|new file) mode /.test(line)) {
        current.push(line);
        continue;
      } else continue; // index, similarity, rename from/to, ---/+++ (quoted names), Binary files …
    }
    current.push(line);
  }
  return sections.map((s) => {
    while (s.length > 0 && s[s.length - 1] === '') s.pop();
    return s.join('\n');
  });
}

export interface LogEntry {
  readonly commit: string;
  readonly author: string;
  readonly date: string;
  readonly subject: string;
  readonly files: number;
  readonly added: number;
  readonly deleted: number;
}

/** Separators of the `--format` these tools give git: record and field separators no text contains. */
export const RS = '\x1e';
export const US = '\x1f';
export const LOG_FORMAT = `--format=${'%x1e'}%H${'%x1f'}%an${'%x1f'}%aI${'%x1f'}%s`;

/** `git log --numstat --format=…` (LOG_FORMAT): one record per commit, its numstat lines counted. */
export function parseLog(out: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const record of out.split(RS).slice(1)) {
    const nl = record.indexOf('\n');
    const head = nl < 0 ? record : record.slice(0, nl);
    const [commit, author, date, subject] = head.split(US);
    if (!commit || !/^[0-9a-f]{7,64}$/.test(commit)) continue;
    let files = 0;
    let added = 0;
    let deleted = 0;
    for (const line of (nl < 0 ? '' : record.slice(nl + 1)).split('\n')) {
      const m = /^(\d+|-)\t(\d+|-)\t/.exec(line);
      if (!m) continue;
      files++;
      if (m[1] !== '-') added += Number(m[1]);
      if (m[2] !== '-') deleted += Number(m[2]);
    }
    entries.push({ commit, author: author ?? '', date: date ?? '', subject: subject ?? '', files, added, deleted });
  }
  return entries;
}

export interface BlameLine {
  readonly commit: string;
  readonly line: number;
  readonly author: string;
  /** Seconds since 1970 (author-time). */
  readonly time: number;
  readonly summary: string;
  readonly text: string;
}

/** `git blame --porcelain`: a header per line, the commit's details the first time it appears, then a TAB and the line. */
export function parseBlame(out: string): BlameLine[] {
  const lines: BlameLine[] = [];
  const commits = new Map<string, { author: string; time: number; summary: string }>();
  let current: { commit: string; line: number } | null = null;
  for (const raw of out.split('\n')) {
    if (raw.startsWith('\t')) {
      if (current) {
        const c = commits.get(current.commit) ?? { author: '', time: 0, summary: '' };
        lines.push({ commit: current.commit, line: current.line, author: c.author, time: c.time, summary: c.summary, text: raw.slice(1).replace(/\r$/, '') });
      }
      current = null;
      continue;
    }
    const header = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(raw);
    if (header) {
      current = { commit: header[1] as string, line: Number(header[2]) };
      if (!commits.has(current.commit)) commits.set(current.commit, { author: '', time: 0, summary: '' });
      continue;
    }
    if (!current) continue;
    const c = commits.get(current.commit)!;
    if (raw.startsWith('author ')) c.author = raw.slice(7);
    else if (raw.startsWith('author-time ')) c.time = Number(raw.slice(12));
    else if (raw.startsWith('summary ')) c.summary = raw.slice(8);
  }
  return lines;
}

/** Lines added to a text until the budget is spent; the tool says what was left out. */
export class BudgetedText {
  private readonly parts: string[] = [];
  private used = 0;
  /** Characters kept back for the closing note. */
  static readonly NOTE_RESERVE = 400;

  constructor(private readonly budget: number) {}

  /** Adds the line if it fits; false when it does not (nothing is added). */
  add(line: string): boolean {
    const cost = line.length + 1;
    if (this.used + cost > this.budget - BudgetedText.NOTE_RESERVE) return false;
    this.parts.push(line);
    this.used += cost;
    return true;
  }

  /** Adds as much of a multi-line block as fits, whole lines only; returns how many lines were left out. */
  addBlock(block: string, indent = ''): number {
    const lines = block === '' ? [] : block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!this.add(indent + lines[i])) return lines.length - i;
    }
    return 0;
  }

  /** Characters still free (before the note reserve). */
  left(): number {
    return Math.max(0, this.budget - BudgetedText.NOTE_RESERVE - this.used);
  }

  text(notes: readonly string[] = []): string {
    return [...this.parts, ...notes].join('\n');
  }
}
