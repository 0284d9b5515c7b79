/**
 * Writes a tiny GGUF v3 model (llama architecture, random F32 weights, ≈ 360 KB) so the embedded
 * engine runs for real in `npm test` without downloading weights. Facts it relies on are in
 * shared/notes/tiny-gguf.md (checked with node-llama-cpp 3.21.1):
 * - the keys and tensors llama.cpp requires; a missing feed_forward_length/head_count aborts the
 *   whole process, which is why Baram validates a GGUF header before the engine sees it;
 * - `tokenizer.ggml.token_type`, and all 256 byte-fallback tokens `<0x00>`..`<0xFF>` (type 6);
 * - random weights emit arbitrary bytes, and the grammar's UTF-8 check is looser than JavaScript's
 *   decoder: a constant embedding dimension (`BIAS_DIM`), kept out of every layer's output and
 *   read by `output.weight` as a large negative logit, keeps non-ASCII and control bytes away.
 *
 * Usage: `npx tsx scripts/make-tiny-gguf.ts OUT.gguf` — or import `writeTinyGguf` (the tests do,
 * into a temp folder). Deterministic: the same seed gives the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface TinyGgufOptions {
  readonly seed?: number;
  readonly contextLength?: number;
  /** Leave out keys to produce a header the engine would abort on (for validator tests). */
  readonly omitKeys?: readonly string[];
  /**
   * Script the first free token: one vocabulary entry `||call:` (node-llama-cpp's generic
   * function-call prefix, used when a GGUF has no chat template) gets a large logit, so the model
   * starts every unconstrained answer with a function call — the native path can then be tested.
   */
  readonly scriptedCallPrefix?: boolean;
}

/** The generic chat wrapper's call prefix (node-llama-cpp 3.21.1, Llama2Chat / general wrappers). */
export const CALL_PREFIX_TOKEN = '||call:';

const N_EMBD = 64;
const N_FF = 128;
const N_HEAD = 4;
const N_LAYER = 1;
const BIAS_DIM = N_EMBD - 1;

const enum T {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

type Value =
  | { t: T.UINT32 | T.INT32 | T.FLOAT32; v: number }
  | { t: T.BOOL; v: boolean }
  | { t: T.STRING; v: string }
  | { t: T.ARRAY; of: T.STRING; v: string[] }
  | { t: T.ARRAY; of: T.FLOAT32 | T.INT32; v: number[] };

/** The vocabulary: 3 specials, 256 byte tokens, the space marker and printable ASCII, a few pairs. */
export function tinyVocab(scriptedCallPrefix = false): { tokens: string[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  tokens.push('\u2581');
  types.push(1);
  for (let c = 0x21; c <= 0x7e; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  for (const pair of ['\u2581"', '":', '",', '{"', '"}', '\u2581{', '\u2581}']) {
    tokens.push(pair);
    types.push(1);
  }
  if (scriptedCallPrefix) {
    tokens.push(CALL_PREFIX_TOKEN);
    types.push(1);
  }
  return { tokens, types };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function tinyGgufBytes(options: TinyGgufOptions = {}): Buffer {
  const rand = mulberry32(options.seed ?? 16);
  const gauss = (scale: number) => (rand() + rand() + rand() - 1.5) * scale;
  const { tokens, types } = tinyVocab(options.scriptedCallPrefix);
  const callPrefix = options.scriptedCallPrefix ? tokens.indexOf(CALL_PREFIX_TOKEN) : -1;
  const nVocab = tokens.length;
  const banned = new Set<number>();
  for (let b = 0; b < 256; b++) if (b < 0x20 || b >= 0x7f) banned.add(3 + b);
  banned.add(0); // <unk>

  const kv: [string, Value][] = [
    ['general.architecture', { t: T.STRING, v: 'llama' }],
    ['general.name', { t: T.STRING, v: options.scriptedCallPrefix ? 'baram-tiny-test-calls' : 'baram-tiny-test' }],
    ['general.alignment', { t: T.UINT32, v: 32 }],
    ['llama.context_length', { t: T.UINT32, v: options.contextLength ?? 4096 }],
    ['llama.embedding_length', { t: T.UINT32, v: N_EMBD }],
    ['llama.block_count', { t: T.UINT32, v: N_LAYER }],
    ['llama.feed_forward_length', { t: T.UINT32, v: N_FF }],
    ['llama.attention.head_count', { t: T.UINT32, v: N_HEAD }],
    ['llama.attention.head_count_kv', { t: T.UINT32, v: N_HEAD }],
    ['llama.attention.layer_norm_rms_epsilon', { t: T.FLOAT32, v: 1e-5 }],
    ['llama.rope.dimension_count', { t: T.UINT32, v: N_EMBD / N_HEAD }],
    ['tokenizer.ggml.model', { t: T.STRING, v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: T.ARRAY, of: T.STRING, v: tokens }],
    ['tokenizer.ggml.scores', { t: T.ARRAY, of: T.FLOAT32, v: tokens.map((_, i) => (i < 259 ? 0 : -i)) }],
    ['tokenizer.ggml.token_type', { t: T.ARRAY, of: T.INT32, v: types }],
    ['tokenizer.ggml.bos_token_id', { t: T.UINT32, v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: T.UINT32, v: 2 }],
    ['tokenizer.ggml.unknown_token_id', { t: T.UINT32, v: 0 }],
    ['tokenizer.ggml.add_space_prefix', { t: T.BOOL, v: false }],
  ];
  const keys = kv.filter(([k]) => !options.omitKeys?.includes(k));

  // Tensors: ggml dims are [ne0, ne1] = [columns, rows].
  const tensors: { name: string; dims: number[]; data: Float32Array }[] = [];
  const add = (name: string, dims: number[], fill: (i: number) => number) => {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = fill(i);
    tensors.push({ name, dims, data });
  };
  // token_embd [N_EMBD, nVocab]: element (d, tok) at tok * N_EMBD + d; BIAS_DIM constant.
  add('token_embd.weight', [N_EMBD, nVocab], (i) => (i % N_EMBD === BIAS_DIM ? 4 : gauss(0.5)));
  add('output_norm.weight', [N_EMBD], () => 1);
  add('output.weight', [N_EMBD, nVocab], (i) => {
    const d = i % N_EMBD;
    const tok = Math.floor(i / N_EMBD);
    if (d === BIAS_DIM) return banned.has(tok) ? -60 : tok === callPrefix ? 12 : 0;
    return gauss(0.5);
  });
  for (let l = 0; l < N_LAYER; l++) {
    const p = `blk.${l}.`;
    add(p + 'attn_norm.weight', [N_EMBD], () => 1);
    add(p + 'attn_q.weight', [N_EMBD, N_EMBD], () => gauss(0.1));
    add(p + 'attn_k.weight', [N_EMBD, N_EMBD], () => gauss(0.1));
    add(p + 'attn_v.weight', [N_EMBD, N_EMBD], () => gauss(0.1));
    // Output rows for BIAS_DIM are zero: the residual keeps that dimension constant.
    add(p + 'attn_output.weight', [N_EMBD, N_EMBD], (i) => (Math.floor(i / N_EMBD) === BIAS_DIM ? 0 : gauss(0.1)));
    add(p + 'ffn_norm.weight', [N_EMBD], () => 1);
    add(p + 'ffn_gate.weight', [N_EMBD, N_FF], () => gauss(0.1));
    add(p + 'ffn_up.weight', [N_EMBD, N_FF], () => gauss(0.1));
    add(p + 'ffn_down.weight', [N_FF, N_EMBD], (i) => (Math.floor(i / N_FF) === BIAS_DIM ? 0 : gauss(0.1)));
  }

  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    parts.push(b);
  };
  const i32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    parts.push(b);
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    parts.push(b);
  };
  const f32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    parts.push(b);
  };
  const str = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    u64(b.length);
    parts.push(b);
  };

  parts.push(Buffer.from('GGUF', 'ascii'));
  u32(3);
  u64(tensors.length);
  u64(keys.length);
  for (const [key, value] of keys) {
    str(key);
    u32(value.t);
    switch (value.t) {
      case T.UINT32:
        u32(value.v);
        break;
      case T.INT32:
        i32(value.v);
        break;
      case T.FLOAT32:
        f32(value.v);
        break;
      case T.BOOL:
        parts.push(Buffer.from([value.v ? 1 : 0]));
        break;
      case T.STRING:
        str(value.v);
        break;
      case T.ARRAY:
        u32(value.of);
        u64(value.v.length);
        if (value.of === T.STRING) for (const s of value.v as string[]) str(s);
        else if (value.of === T.FLOAT32) for (const n of value.v as number[]) f32(n);
        else for (const n of value.v as number[]) i32(n);
        break;
    }
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    str(t.name);
    u32(t.dims.length);
    for (const d of t.dims) u64(d);
    u32(0); // F32
    u64(offset);
    offsets.push(offset);
    offset += align(t.data.byteLength, 32);
  }
  let header = Buffer.concat(parts);
  header = Buffer.concat([header, Buffer.alloc(align(header.length, 32) - header.length)]);
  const data = Buffer.alloc(offset);
  tensors.forEach((t, i) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).copy(data, offsets[i]));
  return Buffer.concat([header, data]);
}

function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

export function writeTinyGguf(path: string, options: TinyGgufOptions = {}): string {
  writeFileSync(path, tinyGgufBytes(options));
  return path;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: tsx scripts/make-tiny-gguf.ts OUT.gguf');
    process.exit(2);
  }
  writeTinyGguf(out);
  console.log(out);
}
