import { createHash } from 'node:crypto';
import jsQR from 'jsqr';
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { QR_QUIET_ZONE, qrModules, qrSvg, qrTerminalText } from '../../../electron/main/audit/checkpoint/qr';

/** A checkpoint as C2SP tlog-checkpoint writes it: origin, size, root hash, extension, blank line, signature line. */
const CHECKPOINT = [
  'baram.local/audit/PC-fin-07',
  '184467',
  createHash('sha256').update('root').digest('base64'),
  'time 2026-12-02T14:05:01.123Z',
  '',
  `— baram.local/audit/PC-fin-07 ${createHash('sha512').update('sig').digest('base64').slice(0, 70)}`,
  '',
].join('\n');

const PIXELS_PER_MODULE = 4;

/** RGBA image of the modules with a light quiet zone, as a camera would see the printed code. */
function rasterize(modules: readonly (readonly boolean[])[]): { data: Uint8ClampedArray; width: number; height: number } {
  const size = modules.length + 2 * QR_QUIET_ZONE;
  const width = size * PIXELS_PER_MODULE;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < PIXELS_PER_MODULE; dy++) {
        for (let dx = 0; dx < PIXELS_PER_MODULE; dx++) {
          const px = (x + QR_QUIET_ZONE) * PIXELS_PER_MODULE + dx;
          const py = (y + QR_QUIET_ZONE) * PIXELS_PER_MODULE + dy;
          const offset = (py * width + px) * 4;
          data[offset] = data[offset + 1] = data[offset + 2] = 0;
        }
      }
    }),
  );
  return { data, width, height: width };
}

function decode(modules: readonly (readonly boolean[])[]): { text: string; bytes: number[] } | null {
  const image = rasterize(modules);
  // dontInvert: a code that only decodes inverted would fail on many phone scanners.
  const result = jsQR(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' });
  return result === null ? null : { text: result.data, bytes: result.binaryData };
}

/**
 * The error-correction level from the symbol's format information (ISO/IEC 18004 §7.9): 15 bits
 * XOR 0x5412, the top two bits being the level (L=01, M=00, Q=11, H=10). Bit 14 sits at row 8,
 * column 0 and bit 13 at row 8, column 1, next to the top-left finder.
 */
function eccLevel(modules: readonly (readonly boolean[])[]): 'L' | 'M' | 'Q' | 'H' {
  const bit14 = (modules[8]?.[0] ? 1 : 0) ^ 1;
  const bit13 = (modules[8]?.[1] ? 1 : 0) ^ 0;
  return (['M', 'L', 'H', 'Q'] as const)[(bit14 << 1) | bit13]!;
}

const FULL = '█';
const UPPER = '▀';
const LOWER = '▄';

/** Reads the half-block text back into rows of "inked" cells (upper half, lower half). */
function parseHalfBlocks(text: string): boolean[][] {
  const rows: boolean[][] = [];
  for (const line of text.split('\n')) {
    const upper: boolean[] = [];
    const lower: boolean[] = [];
    for (const c of line) {
      if (![FULL, UPPER, LOWER, ' '].includes(c)) throw new Error(`unexpected character ${JSON.stringify(c)}`);
      upper.push(c === FULL || c === UPPER);
      lower.push(c === FULL || c === LOWER);
    }
    rows.push(upper, lower);
  }
  return rows;
}

/** Terminal ink back to modules (dark = true) for a given background, quiet zone checked and removed. */
function modulesFromTerminal(text: string, background: 'dark' | 'light', symbolSize: number): boolean[][] {
  const inked = parseHalfBlocks(text);
  const total = symbolSize + 2 * QR_QUIET_ZONE;
  expect(inked.length).toBe(total + (total % 2));
  if (total % 2 === 1) expect(inked[total]?.every((ink) => !ink)).toBe(true); // below the code: background
  const modules = inked.slice(0, total).map((row) => row.map((ink) => (background === 'dark' ? !ink : ink)));
  modules.forEach((row, y) => {
    expect(row).toHaveLength(total);
    row.forEach((dark, x) => {
      const inQuietZone = y < QR_QUIET_ZONE || y >= total - QR_QUIET_ZONE || x < QR_QUIET_ZONE || x >= total - QR_QUIET_ZONE;
      if (inQuietZone && dark) throw new Error(`quiet zone module (${x},${y}) is dark`);
    });
  });
  return modules.slice(QR_QUIET_ZONE, total - QR_QUIET_ZONE).map((row) => row.slice(QR_QUIET_ZONE, total - QR_QUIET_ZONE));
}

describe('qrModules', () => {
  const modules = qrModules(CHECKPOINT);

  it('is a square symbol of a QR size (4·version + 17)', () => {
    expect(Buffer.byteLength(CHECKPOINT)).toBeGreaterThan(150);
    expect(Buffer.byteLength(CHECKPOINT)).toBeLessThan(300);
    for (const row of modules) expect(row).toHaveLength(modules.length);
    expect((modules.length - 17) % 4).toBe(0);
  });

  it('decodes to exactly the checkpoint text, em dash and newlines included', () => {
    const decoded = decode(modules);
    expect(decoded?.text).toBe(CHECKPOINT);
    expect(decoded?.bytes).toEqual([...Buffer.from(CHECKPOINT, 'utf8')]);
  });

  it('uses error correction M or higher', () => {
    // The reader of the format bits is checked against a symbol known to be L.
    expect(eccLevel(encode('calibration text', { ecc: 'L', boostEcc: false, border: 0 }).data)).toBe('L');
    expect(['M', 'Q', 'H']).toContain(eccLevel(modules));
  });

  it('decodes short and Korean texts too', () => {
    for (const text of ['1', 'ABC-123', '감사 체크포인트 — 2026-12-02']) expect(decode(qrModules(text))?.text).toBe(text);
  });

  it('refuses a lone surrogate instead of encoding U+FFFD', () => {
    expect(() => qrModules('a\uD800b')).toThrow(RangeError);
  });
});

describe('qrTerminalText', () => {
  const modules = qrModules(CHECKPOINT);

  it('round-trips to the same modules on a dark terminal (default), quiet zone included', () => {
    const text = qrTerminalText(CHECKPOINT);
    expect(text.endsWith('\n')).toBe(false);
    const lines = text.split('\n');
    expect(new Set(lines.map((l) => [...l].length))).toEqual(new Set([modules.length + 2 * QR_QUIET_ZONE]));
    expect(modulesFromTerminal(text, 'dark', modules.length)).toEqual(modules);
    // Two module rows per line.
    expect(lines).toHaveLength(Math.ceil((modules.length + 2 * QR_QUIET_ZONE) / 2));
  });

  it('round-trips on a light terminal, and what it shows decodes', () => {
    const text = qrTerminalText(CHECKPOINT, { background: 'light' });
    const back = modulesFromTerminal(text, 'light', modules.length);
    expect(back).toEqual(modules);
    expect(decode(back)?.text).toBe(CHECKPOINT);
  });

  it('fits an 80-column terminal for a checkpoint-sized text', () => {
    expect([...(qrTerminalText(CHECKPOINT).split('\n')[0] ?? '')].length).toBeLessThanOrEqual(80);
  });
});

describe('qrSvg', () => {
  it('draws exactly the modules, inside a quiet zone, with no text in it', () => {
    const modules = qrModules(CHECKPOINT);
    const svg = qrSvg(CHECKPOINT);
    const total = modules.length + 2 * QR_QUIET_ZONE;
    expect(svg).toMatch(new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}"[^>]*>.*</svg>$`));
    expect(svg).not.toContain('baram.local');
    const d = /<path fill="#000" d="([^"]*)"\/>/.exec(svg)?.[1] ?? '';
    const drawn = Array.from({ length: total }, () => new Array<boolean>(total).fill(false));
    const runs = [...d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
    expect(runs.map((m) => m[0]).join('')).toBe(d);
    for (const [, x, y, length, back] of runs) {
      expect(back).toBe(length);
      for (let i = 0; i < Number(length); i++) drawn[Number(y)]![Number(x) + i] = true;
    }
    const inner = drawn.slice(QR_QUIET_ZONE, total - QR_QUIET_ZONE).map((row) => row.slice(QR_QUIET_ZONE, total - QR_QUIET_ZONE));
    expect(inner).toEqual(modules);
    expect(drawn.flat().filter(Boolean).length).toBe(modules.flat().filter(Boolean).length);
  });
});
