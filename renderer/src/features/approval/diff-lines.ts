/**
 * Reads the gate's change preview (ApprovalRequest.preview) into typed lines for the dialog. The
 * tools write it as text, the same text the terminal shows (tools/kit/text-file.ts renderDiff and
 * renderHead: `@@` hunks, `+`/`-`/` ` lines; tools/excel/book/edits.ts renderChanges:
 * `  B2: "old" → "new"` per cell), so the window only has to tell the kinds of line apart.
 */
export type DiffLine =
  | { readonly kind: 'hunk'; readonly text: string }
  | { readonly kind: 'added'; readonly text: string }
  | { readonly kind: 'removed'; readonly text: string }
  | { readonly kind: 'context'; readonly text: string }
  | { readonly kind: 'note'; readonly text: string };

/**
 * Tools whose preview is a diff. Another tool's preview (a command line, a note about skipped
 * files) is shown as plain text: a line of it that happens to start with "-" is not a removal.
 */
const DIFF_TOOLS: ReadonlySet<string> = new Set(['filesystem.write', 'filesystem.edit', 'excel.write', 'document.word.write']);

export function previewIsDiff(tool: string): boolean {
  return DIFF_TOOLS.has(tool);
}

/** `  B2: "old" → "new"`: one changed cell (the values never contain a raw newline; ↵ stands for it). */
const CELL_CHANGE = /^ {2}([A-Z]{1,3}[0-9]{1,7}): (.*)$/;
const ARROW = ' → ';

export function diffLines(preview: string): DiffLine[] {
  const out: DiffLine[] = [];
  let inHunk = false;
  for (const line of preview.split('\n')) {
    if (line.startsWith('@@ ')) {
      inHunk = true;
      out.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+')) {
      out.push({ kind: 'added', text: line.slice(1) });
    } else if (line.startsWith('-')) {
      out.push({ kind: 'removed', text: line.slice(1) });
    } else if (inHunk && line.startsWith(' ')) {
      out.push({ kind: 'context', text: line.slice(1) });
    } else {
      const cell = CELL_CHANGE.exec(line);
      const values = cell?.[2]?.split(ARROW);
      if (cell && values?.length === 2) {
        // A cell change reads as the old value removed and the new one added, like a text line.
        out.push({ kind: 'removed', text: `${cell[1]}: ${values[0]}` }, { kind: 'added', text: `${cell[1]}: ${values[1]}` });
      } else {
        inHunk = false;
        out.push({ kind: 'note', text: line.trim() });
      }
    }
  }
  return out;
}
