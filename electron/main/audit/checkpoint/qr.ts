import { encode } from 'uqr';

/**
 * QR codes for checkpoint texts, so security staff can carry the ledger's tail anchor off the
 * machine with a phone camera (SPEC A-*: "shown as text and QR code"). Encoding is uqr's (a port of
 * Nayuki's QR generator, no dependencies, ESM); the renderers are ours, because the terminal and
 * SVG forms have to meet requirements uqr's renderers do not (quiet zone, dark terminals).
 */

/**
 * Error correction M (15 % of codewords recoverable) at least: a code photographed off a monitor
 * or a creased printout loses a few modules. uqr raises the level to Q or H when that fits in the
 * same version, so the code never grows for the extra safety.
 */
const ERROR_CORRECTION = 'M';

/** ISO/IEC 18004 §9.1: four light modules around the symbol; scanners fail to find it with less. */
export const QR_QUIET_ZONE = 4;

/**
 * The symbol for `text`, without quiet zone: `modules[row][col]`, true = dark.
 *
 * The text goes in as UTF-8 in byte mode, so the em dash of a checkpoint's signature line survives;
 * readers (jsQR, ZXing, phone cameras) detect UTF-8 in byte mode. A checkpoint of 150–300 bytes
 * gives version 10–13 (57–69 modules); with the quiet zone that is at most 77 columns of terminal.
 */
export function qrModules(text: string): boolean[][] {
  if (LONE_SURROGATE.test(text)) {
    // Encoding would silently turn it into U+FFFD and the code would not match the text beside it.
    throw new RangeError('QR 텍스트에 짝 없는 서로게이트가 있습니다 / QR text holds a lone surrogate (not valid UTF-8)');
  }
  const bytes = Array.from(new TextEncoder().encode(text));
  const symbol = encode(bytes, { ecc: ERROR_CORRECTION, boostEcc: true, border: 0 });
  return symbol.data.map((row) => [...row]);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface QrTerminalOptions {
  /**
   * The terminal's background. Default 'dark' (Windows console, most terminal themes): the text
   * colour is light, so LIGHT modules are drawn with block characters and dark ones left as
   * background. On a light terminal the opposite. Drawing dark modules on a dark terminal would
   * show an inverted code, which many scanners reject.
   */
  readonly background?: 'dark' | 'light';
}

/**
 * The code as text for a terminal: two module rows per line with the half blocks ▀ ▄ █ and space,
 * so modules come out about square in a monospaced font, with the quiet zone drawn too. Lines have
 * equal length; no trailing newline.
 */
export function qrTerminalText(text: string, options: QrTerminalOptions = {}): string {
  const modules = withQuietZone(qrModules(text));
  const inkIsDark = options.background === 'light';
  const size = modules.length;
  // Outside the symbol (the lower half of the last line when the size is odd) is plain background.
  const ink = (row: number, col: number): boolean => row < size && modules[row]?.[col] === inkIsDark;
  const lines: string[] = [];
  for (let row = 0; row < size; row += 2) {
    let line = '';
    for (let col = 0; col < size; col++) line += HALF_BLOCKS[(ink(row, col) ? 2 : 0) + (ink(row + 1, col) ? 1 : 0)];
    lines.push(line);
  }
  return lines.join('\n');
}

/** Index: 2 × (upper half inked) + (lower half inked). */
const HALF_BLOCKS = [' ', '▄', '▀', '█'] as const;

/**
 * The code as a standalone SVG for the desktop UI: one path of dark runs on a white square with the
 * quiet zone, in module units (viewBox), so CSS sizes it without blurring. It holds no text of the
 * checkpoint: nothing in it needs escaping, and it is safe to inline.
 */
export function qrSvg(text: string): string {
  const modules = qrModules(text);
  const total = modules.length + 2 * QR_QUIET_ZONE;
  const runs: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      const length = x - start;
      runs.push(`M${start + QR_QUIET_ZONE} ${y + QR_QUIET_ZONE}h${length}v1h-${length}z`);
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges">` +
    `<rect width="${total}" height="${total}" fill="#fff"/>` +
    `<path fill="#000" d="${runs.join('')}"/>` +
    `</svg>`
  );
}

function withQuietZone(modules: readonly (readonly boolean[])[]): boolean[][] {
  const total = modules.length + 2 * QR_QUIET_ZONE;
  const blankRow = (): boolean[] => new Array<boolean>(total).fill(false);
  const margin = new Array<boolean>(QR_QUIET_ZONE).fill(false);
  return [
    ...Array.from({ length: QR_QUIET_ZONE }, blankRow),
    ...modules.map((row) => [...margin, ...row, ...margin]),
    ...Array.from({ length: QR_QUIET_ZONE }, blankRow),
  ];
}
