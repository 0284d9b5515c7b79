import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { text, type Text } from '../../common/i18n';

/**
 * Reads and checks a GGUF header before node-llama-cpp sees the file: llama.cpp aborts the whole
 * process (GGML_ASSERT, not an exception) on a header it does not expect — a missing
 * `feed_forward_length` or `attention.head_count`, a byte token it cannot find (tiny-gguf.md).
 * Baram would vanish with the user's conversation; so the file is refused here, with a message.
 *
 * Checked: magic "GGUF", version 2 or 3, sane tensor and key counts, every key and tensor record
 * readable within the file, the architecture's required keys, the tokenizer's tokens and types,
 * and that every tensor's data lies inside the file.
 */
export interface GgufInfo {
  readonly version: number;
  readonly architecture: string;
  readonly name?: string;
  readonly contextLength?: number;
  readonly tensorCount: number;
  readonly metadata: ReadonlyMap<string, unknown>;
  readonly chatTemplate?: string;
  readonly fileSize: number;
}

export type GgufCheck = { readonly ok: true; readonly info: GgufInfo } | { readonly ok: false; readonly problem: Text };

const MAX_TENSORS = 1_000_000;
const MAX_KEYS = 100_000;
const MAX_STRING = 64 * 1024 * 1024;
const MAX_ARRAY = 10_000_000;

/** Keys llama.cpp needs for every transformer architecture (`<arch>.` prefixed). */
const REQUIRED_ARCH_KEYS = ['context_length', 'embedding_length', 'block_count'] as const;
const ATTENTION_KEYS = ['feed_forward_length', 'attention.head_count'] as const;
/** Architectures without attention heads or a feed-forward length (state-space / RWKV). */
const NO_ATTENTION = new Set(['mamba', 'mamba2', 'rwkv6', 'rwkv6qwen2', 'rwkv7', 'arwkv7']);

/** ggml type id → [block size, bytes per block]; from ggml.h (types a GGUF may hold). */
const GGML_TYPES: Record<number, readonly [number, number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34], 9: [32, 36],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292],
  16: [256, 66], 17: [256, 74], 18: [256, 98], 19: [256, 50], 20: [32, 18], 21: [256, 110], 22: [256, 82],
  23: [256, 136], 24: [1, 1], 25: [1, 2], 26: [1, 4], 27: [1, 8], 28: [1, 8], 29: [256, 56], 30: [1, 2],
  34: [256, 54], 35: [256, 66], 39: [32, 17],
};

class Bad extends Error {}

class Reader {
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  pos = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  private ensure(n: number): void {
    if (this.pos + n > this.size) throw new Bad(`the header runs past the end of the file (at byte ${this.pos})`);
    if (this.pos >= this.bufStart && this.pos + n <= this.bufStart + this.buf.length) return;
    const len = Math.min(Math.max(n, 1 << 20), this.size - this.pos);
    const b = Buffer.alloc(len);
    let got = 0;
    while (got < len) {
      const r = readSync(this.fd, b, got, len - got, this.pos + got);
      if (r === 0) break;
      got += r;
    }
    if (got < n) throw new Bad('the file could not be read');
    this.buf = b.subarray(0, got);
    this.bufStart = this.pos;
  }

  bytes(n: number): Buffer {
    this.ensure(n);
    const o = this.pos - this.bufStart;
    this.pos += n;
    return this.buf.subarray(o, o + n);
  }
  u8 = () => this.bytes(1).readUInt8(0);
  u16 = () => this.bytes(2).readUInt16LE(0);
  u32 = () => this.bytes(4).readUInt32LE(0);
  i8 = () => this.bytes(1).readInt8(0);
  i16 = () => this.bytes(2).readInt16LE(0);
  i32 = () => this.bytes(4).readInt32LE(0);
  f32 = () => this.bytes(4).readFloatLE(0);
  f64 = () => this.bytes(8).readDoubleLE(0);
  u64(): number {
    const v = this.bytes(8).readBigUInt64LE(0);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Bad(`a 64-bit count is too large (${v})`);
    return Number(v);
  }
  i64 = () => Number(this.bytes(8).readBigInt64LE(0));
  str(): string {
    const n = this.u64();
    if (n > MAX_STRING) throw new Bad(`a string of ${n} bytes`);
    return this.bytes(n).toString('utf8');
  }
}

function readValue(r: Reader, type: number, depth = 0): unknown {
  switch (type) {
    case 0: return r.u8();
    case 1: return r.i8();
    case 2: return r.u16();
    case 3: return r.i16();
    case 4: return r.u32();
    case 5: return r.i32();
    case 6: return r.f32();
    case 7: return r.u8() !== 0;
    case 8: return r.str();
    case 9: {
      if (depth > 2) throw new Bad('arrays nested too deeply');
      const of = r.u32();
      const n = r.u64();
      if (n > MAX_ARRAY) throw new Bad(`an array of ${n} elements`);
      const out: unknown[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = readValue(r, of, depth + 1);
      return out;
    }
    case 10: return r.u64();
    case 11: return r.i64();
    case 12: return r.f64();
    default:
      throw new Bad(`unknown value type ${type}`);
  }
}

export function checkGguf(path: string): GgufCheck {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    return { ok: false, problem: text(`파일을 열 수 없습니다 (${code}).`, `The file cannot be opened (${code}).`) };
  }
  try {
    const size = fstatSync(fd).size;
    const r = new Reader(fd, size);
    if (size < 24) throw new Bad(`the file is only ${size} bytes`);
    if (r.bytes(4).toString('latin1') !== 'GGUF') throw new Bad('it does not start with "GGUF" (not a GGUF model file)');
    const version = r.u32();
    if (version !== 2 && version !== 3) throw new Bad(`GGUF version ${version} is not supported (2 or 3)`);
    const tensorCount = r.u64();
    const kvCount = r.u64();
    if (tensorCount === 0 || tensorCount > MAX_TENSORS) throw new Bad(`tensor count ${tensorCount}`);
    if (kvCount > MAX_KEYS) throw new Bad(`metadata key count ${kvCount}`);
    const metadata = new Map<string, unknown>();
    for (let i = 0; i < kvCount; i++) {
      const key = r.str();
      const type = r.u32();
      metadata.set(key, readValue(r, type));
    }
    const arch = metadata.get('general.architecture');
    if (typeof arch !== 'string' || !arch) throw new Bad("no 'general.architecture'");
    const required = [...REQUIRED_ARCH_KEYS, ...(NO_ATTENTION.has(arch) ? [] : ATTENTION_KEYS)].map((k) => `${arch}.${k}`);
    for (const k of required) {
      const v = metadata.get(k);
      const ok = typeof v === 'number' ? v > 0 : Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');
      if (!ok) throw new Bad(`the required key '${k}' is missing or not a positive number`);
    }
    if (typeof metadata.get('tokenizer.ggml.model') !== 'string') throw new Bad("no 'tokenizer.ggml.model'");
    const tokens = metadata.get('tokenizer.ggml.tokens');
    if (!Array.isArray(tokens) || tokens.length === 0) throw new Bad("no 'tokenizer.ggml.tokens'");
    const types = metadata.get('tokenizer.ggml.token_type');
    if (types !== undefined && (!Array.isArray(types) || types.length !== tokens.length)) throw new Bad("'tokenizer.ggml.token_type' does not match the token list");
    for (const idKey of ['bos_token_id', 'eos_token_id', 'unknown_token_id', 'padding_token_id']) {
      const id = metadata.get(`tokenizer.ggml.${idKey}`);
      if (typeof id === 'number' && (id < 0 || id >= tokens.length)) throw new Bad(`'tokenizer.ggml.${idKey}' ${id} is outside the vocabulary`);
    }
    if (metadata.get('tokenizer.ggml.model') === 'llama' && Array.isArray(types)) {
      // SentencePiece vocabularies: llama.cpp terminates on an unknown character without byte tokens.
      const bytes = types.filter((t) => t === 6).length;
      if (bytes > 0 && bytes < 256) throw new Bad(`only ${bytes} of the 256 byte-fallback tokens`);
    }
    const alignment = typeof metadata.get('general.alignment') === 'number' ? (metadata.get('general.alignment') as number) : 32;
    if (alignment <= 0 || alignment % 8 !== 0) throw new Bad(`alignment ${alignment}`);
    const extents: { name: string; offset: number; bytes: number | null }[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = r.str();
      const nDims = r.u32();
      if (nDims < 1 || nDims > 4) throw new Bad(`tensor '${name}' has ${nDims} dimensions`);
      let elements = 1;
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) {
        const n = r.u64();
        dims.push(n);
        elements *= n;
      }
      const type = r.u32();
      const offset = r.u64();
      if (offset % alignment !== 0) throw new Bad(`tensor '${name}' is not aligned`);
      const t = GGML_TYPES[type];
      if (t && dims[0]! % t[0] !== 0) throw new Bad(`tensor '${name}' does not fill whole blocks of its type`);
      extents.push({ name, offset, bytes: t ? (elements / t[0]) * t[1] : null });
    }
    const dataStart = Math.ceil(r.pos / alignment) * alignment;
    for (const e of extents) {
      if (e.bytes !== null && dataStart + e.offset + e.bytes > size) throw new Bad(`tensor '${e.name}' lies beyond the end of the file (truncated download?)`);
    }
    const contextLength = metadata.get(`${arch}.context_length`) as number;
    const name = metadata.get('general.name');
    const template = metadata.get('tokenizer.chat_template');
    return {
      ok: true,
      info: {
        version,
        architecture: arch,
        ...(typeof name === 'string' ? { name } : {}),
        contextLength,
        tensorCount,
        metadata,
        ...(typeof template === 'string' ? { chatTemplate: template } : {}),
        fileSize: size,
      },
    };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, problem: text(`GGUF 헤더가 올바르지 않습니다: ${e.message}.`, `The GGUF header is invalid: ${e.message}.`) };
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    return { ok: false, problem: text(`파일을 읽을 수 없습니다 (${code}).`, `The file cannot be read (${code}).`) };
  } finally {
    closeSync(fd);
  }
}
