import type { CommentSyntax, StringSyntax } from './languages';

/**
 * Counts a source file's lines as cloc does: a line with only whitespace is blank; a line with
 * any code on it is code (also `x = 1; // note`); a line with nothing but comment is comment.
 * A small lexer per comment style walks the text so that markers inside strings ("/*" in a URL,
 * '#' in a message) are not comments, and block comments and multi-line strings carry over
 * from one line to the next. It knows comments and strings only, not the grammar: a regex
 * literal holding a quote (/"/) can mislead it for the rest of that line, never further,
 * because single-line strings end at the line's end.
 */

export interface LineCounts {
  code: number;
  comment: number;
  blank: number;
}

type State =
  | { readonly kind: 'code' }
  | { readonly kind: 'block'; readonly open: string; readonly close: string; depth: number }
  | { readonly kind: 'string'; readonly syntax: StringSyntax; readonly asComment: boolean };

const CODE: State = { kind: 'code' };

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v' || ch === '\u00a0' || ch === '\ufeff';
}

/** Index just past the end of the string that runs from `from`, or -1 when it does not end on this line. */
function stringEnd(line: string, from: number, syntax: StringSyntax): number {
  for (let i = from; i < line.length; i++) {
    if (syntax.escape && line[i] === '\\') {
      i++;
      continue;
    }
    if (line.startsWith(syntax.close, i)) return i + syntax.close.length;
  }
  return -1;
}

/** Length of a character literal at `i` ('a', '\n', '\u{41}'), or 0 when this quote is not one. */
function charLiteralLength(line: string, i: number): number {
  if (line[i + 1] === '\\') {
    const close = line.indexOf("'", i + 3);
    return close > 0 && close - i <= 12 ? close - i + 1 : 0;
  }
  const cp = line.codePointAt(i + 1);
  if (cp === undefined || line[i + 1] === "'") return 0;
  const width = cp > 0xffff ? 2 : 1;
  return line[i + 1 + width] === "'" ? width + 2 : 0;
}

export class LineCounter {
  private state: State = CODE;
  readonly counts: LineCounts = { code: 0, comment: 0, blank: 0 };
  private readonly openers: readonly StringSyntax[];
  /** First characters of every marker: any other character is plain code, decided without a look-up. */
  private readonly starters: ReadonlySet<string>;

  constructor(private readonly syntax: CommentSyntax) {
    const markers = [...syntax.line, ...syntax.block.map(([open]) => open), ...syntax.strings.map((s) => s.open), ...(syntax.charLiterals ? ["'"] : [])];
    this.starters = new Set(markers.map((m) => m[0]!));
    // Longest opener first: '"""' before '"', 'r#"' before '"'.
    this.openers = [...syntax.strings].sort((a, b) => b.open.length - a.open.length);
  }

  /** Counts every line of `text` (split at \n; a trailing newline does not make an extra line). */
  countText(text: string): LineCounts {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      this.countLine(text.slice(start, end));
      start = end + 1;
    }
    return this.counts;
  }

  countLine(line: string): void {
    let first = 0;
    while (first < line.length && isSpace(line[first]!)) first++;
    if (first === line.length) {
      this.counts.blank++;
      return;
    }
    let code = false;
    let comment = false;
    let i = 0;
    const { syntax } = this;
    if (this.state.kind === 'code' && syntax.linePrefixes && this.startsWithPrefix(line.slice(first))) {
      this.counts.comment++;
      return;
    }
    while (i < line.length) {
      const state = this.state;
      if (state.kind === 'block') {
        comment = true;
        i = this.advanceBlock(line, i, state);
        continue;
      }
      if (state.kind === 'string') {
        if (state.asComment) comment = true;
        else code = true;
        const end = stringEnd(line, i, state.syntax);
        if (end < 0) {
          if (!state.syntax.multiline) this.state = CODE;
          break;
        }
        this.state = CODE;
        i = end;
        continue;
      }
      const ch = line[i]!;
      if (!this.starters.has(ch)) {
        if (!isSpace(ch)) code = true;
        i++;
        continue;
      }
      if (this.lineCommentAt(line, i)) {
        comment = true;
        break;
      }
      const block = this.blockAt(line, i, first);
      if (block) {
        this.state = { kind: 'block', open: block[0], close: block[1], depth: 1 };
        comment = true;
        i += block[0].length;
        continue;
      }
      if (ch === "'" && syntax.charLiterals) {
        code = true;
        i += charLiteralLength(line, i) || 1;
        continue;
      }
      const opener = this.stringAt(line, i);
      if (opener) {
        const asComment = opener.docstring === true && !code;
        if (asComment) comment = true;
        else code = true;
        this.state = { kind: 'string', syntax: opener, asComment };
        i += opener.open.length;
        continue;
      }
      code = true;
      i++;
    }
    if (code) this.counts.code++;
    else if (comment) this.counts.comment++;
    else this.counts.code++;
  }

  private startsWithPrefix(rest: string): boolean {
    const lower = rest.toLowerCase();
    return (this.syntax.linePrefixes ?? []).some((p) => lower.startsWith(p) && (p === '::' || lower.length === p.length || isSpace(lower[p.length]!)));
  }

  private lineCommentAt(line: string, i: number): boolean {
    for (const marker of this.syntax.line) {
      if (!line.startsWith(marker, i)) continue;
      if (this.syntax.lineAtWordStart && i > 0 && !isSpace(line[i - 1]!) && line[i - 1] !== ';') continue;
      return true;
    }
    return false;
  }

  private blockAt(line: string, i: number, first: number): readonly [string, string] | undefined {
    if (this.syntax.blockAtLineStart && i !== first) return undefined;
    return this.syntax.block.find(([open]) => line.startsWith(open, i));
  }

  private stringAt(line: string, i: number): StringSyntax | undefined {
    for (const s of this.openers) if (line.startsWith(s.open, i)) return s;
    return undefined;
  }

  /** Moves through a block comment from `i`; returns where the scan goes on. */
  private advanceBlock(line: string, i: number, state: Extract<State, { kind: 'block' }>): number {
    if (this.syntax.blockAtLineStart) {
      // Ruby: =end closes only at the start of a line, and the rest of that line is comment too.
      if (line.trimStart().startsWith(state.close) && i === 0) this.state = CODE;
      return line.length;
    }
    for (let j = i; j < line.length; j++) {
      if (this.syntax.nested && line.startsWith(state.open, j)) {
        state.depth++;
        j += state.open.length - 1;
      } else if (line.startsWith(state.close, j)) {
        state.depth--;
        if (state.depth === 0) {
          this.state = CODE;
          return j + state.close.length;
        }
        j += state.close.length - 1;
      }
    }
    return line.length;
  }
}

/** Lines of one file's text in one language. */
export function countLines(text: string, syntax: CommentSyntax): LineCounts {
  return new LineCounter(syntax).countText(text);
}
