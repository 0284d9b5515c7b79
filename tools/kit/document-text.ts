/**
 * Office documents as text for the model: the document readers (Word, HWP, and later the text
 * search inside documents) turn their format's structure into these few blocks, and one renderer
 * makes Markdown-like lines of them. Markdown because small models read it well and people
 * recognise it in the audit record; tables become pipe tables, since a 4B model reads a table as
 * rows far more reliably than as loose paragraphs.
 */

import type { DocBlock, DocCell } from '../../electron/common/document-capability';

/** The blocks live beside the capability that produces them (the host's parse thread). */
export type { DocBlock, DocCell };

/** Deepest list nesting shown as indentation; deeper items stay at this depth. */
const MAX_LIST_DEPTH = 6;

/** One cell on one line: a pipe would end the cell, a line break the row. */
function cellText(text: string): string {
  return text
    .trim()
    .replace(/\|/g, '\\|')
    .replace(/\s*\r?\n\s*/g, '<br>');
}

/**
 * A table as a grid: a merged cell's text stands in its top-left position and the positions it
 * covers stay empty (pipe tables cannot merge), so every row has the same number of columns and a
 * value stays under its column's header.
 */
export function tableGrid(rows: readonly (readonly DocCell[])[]): string[][] {
  const grid: (string | undefined)[][] = [];
  rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (grid[r]![c] !== undefined) c++;
      const colSpan = Math.max(1, Math.trunc(cell.colSpan ?? 1));
      const rowSpan = Math.max(1, Math.min(rows.length - r, Math.trunc(cell.rowSpan ?? 1)));
      for (let dr = 0; dr < rowSpan; dr++) {
        const line = (grid[r + dr] ??= []);
        for (let dc = 0; dc < colSpan; dc++) line[c + dc] = dr === 0 && dc === 0 ? cellText(cell.text) : '';
      }
      c += colSpan;
    }
  });
  const width = Math.max(0, ...grid.map((line) => line.length));
  return grid.map((line) => Array.from({ length: width }, (_, i) => line[i] ?? ''));
}

/** A pipe table; the first row is the header row (Markdown has no table without one), empty rows left out. */
export function markdownTable(rows: readonly (readonly DocCell[])[]): string[] {
  const grid = tableGrid(rows).filter((line) => line.length > 0);
  if (grid.length === 0) return [];
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const [head, ...body] = grid;
  // Rows with no text at all (spacer rows of forms, rows a merged cell covers) say nothing and cost
  // the budget; HWP forms have many of them.
  const filled = body.filter((row) => row.some((cell) => cell !== ''));
  return [line(head!), line(head!.map(() => '---')), ...filled.map(line)];
}

/**
 * Markdown-like lines of a document: `#` headings, `-` and `1.` lists (numbered per level,
 * indented two spaces a level), pipe tables, and an empty line between blocks.
 */
export function blocksToLines(blocks: readonly DocBlock[]): string[] {
  const out: string[] = [];
  let counters: number[] = [];
  let ordered: boolean[] = [];
  let previous: DocBlock['kind'] | undefined;
  for (const block of blocks) {
    const inList = block.kind === 'listItem' && previous === 'listItem';
    if (out.length > 0 && !inList) out.push('');
    if (block.kind !== 'listItem') {
      counters = [];
      ordered = [];
    }
    switch (block.kind) {
      case 'heading':
        out.push(`${'#'.repeat(Math.min(6, Math.max(1, block.level)))} ${block.text.trim()}`);
        break;
      case 'paragraph':
        out.push(...block.text.split(/\r?\n/).map((l) => l.trimEnd()));
        break;
      case 'listItem': {
        const depth = Math.min(MAX_LIST_DEPTH, Math.max(0, block.depth));
        counters = counters.slice(0, depth + 1);
        ordered = ordered.slice(0, depth + 1);
        // A numbered list right after a bulleted one (or the reverse) starts its own count.
        if (ordered[depth] !== block.ordered) counters[depth] = 0;
        ordered[depth] = block.ordered;
        counters[depth] = (counters[depth] ?? 0) + 1;
        const mark = block.ordered ? `${counters[depth]}.` : '-';
        out.push(`${'  '.repeat(depth)}${mark} ${block.text.trim().replace(/\s*\r?\n\s*/g, ' ')}`);
        break;
      }
      case 'table':
        out.push(...markdownTable(block.rows));
        break;
    }
    previous = block.kind;
  }
  return out;
}

/** Cells of one pipe-table line: `| a | b\|c |` → ['a', 'b|c']; `<br>` is a line break in a cell. */
function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|').replace(/<br\s*\/?>/gi, '\n'));
}

const TABLE_RULE = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$/;

/**
 * The inverse of blocksToLines, for writing: Markdown-like text as blocks. Each non-empty line is a
 * paragraph of its own (office text is written line by line, not in Markdown's wrapped
 * paragraphs); `#` headings, `-`/`*`/`1.` list items indented two spaces a level, and runs of
 * `|` lines as tables (their `---` rule line dropped).
 */
export function markdownToBlocks(content: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (line.trim().startsWith('|')) {
      const rows: DocCell[][] = [];
      for (; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
        if (!TABLE_RULE.test(lines[i]!.trim())) rows.push(tableCells(lines[i]!).map((t) => ({ text: t })));
      }
      i--;
      blocks.push({ kind: 'table', rows });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      continue;
    }
    const item = /^(\s*)([-*+•]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (item) {
      const indent = item[1]!.replace(/\t/g, '  ').length;
      blocks.push({ kind: 'listItem', ordered: /\d/.test(item[2]!), depth: Math.min(MAX_LIST_DEPTH, Math.floor(indent / 2)), text: item[3]! });
      continue;
    }
    blocks.push({ kind: 'paragraph', text: line.trim() });
  }
  return blocks;
}
