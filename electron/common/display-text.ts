/**
 * Text from the model or the disk (file names, arguments, previews) shown to a person: in the
 * terminal approval now, the window and the exports too. Control characters can rewrite or hide
 * what the terminal shows (ESC sequences move the cursor and recolour, CR returns to the line
 * start, BS erases), and bidirectional controls (U+202E) reverse how a name reads
 * ("invoice_cod.exe" shown as "invoice_exe.doc"). Each such character is shown as a visible
 * escape instead (issue 14 class 7), so what a person approves is what is there.
 */

/**
 * C0 controls and DEL, C1 controls, bidi embeddings/overrides/isolates and marks, line and
 * paragraph separators, zero-width characters and the BOM. `keepNewlines` keeps \n (previews,
 * diffs), whose lines are then each escaped.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]|\t|\n/gu;

export function escapeForDisplay(value: string, options: { readonly keepNewlines?: boolean } = {}): string {
  return value.replace(UNSAFE, (ch) => {
    if (ch === '\n' && options.keepNewlines) return ch;
    if (ch === '\t') return options.keepNewlines ? ch : '\\t';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;
  });
}
