/**
 * The SHA-256 compression function (FIPS 180-4 §6.2.2) on 32-bit words, for one purpose: checking
 * row MACs from precomputed HMAC midstates (epoch-row-mac.ts). node:crypto has no way to start a
 * hash from a saved state, so every HMAC there re-hashes both 64-byte key pads; from midstates a
 * row MAC is three block compressions. Measured on the 1M-row verify benchmark's rows (2-core EPYC
 * VM): 1.4 µs per MAC here against 3.0 µs for createHmac and 2.5 µs for two one-shot crypto.hash
 * calls over precomputed pad blocks. Whole messages are still hashed by node:crypto (OpenSSL with
 * SHA-NI is faster per byte); this is only worth it for the two-block messages of an HMAC.
 *
 * Words are signed 32-bit integers (Int32Array, `| 0` arithmetic): what V8 keeps in registers.
 */

/** H(0), the initial hash value (FIPS 180-4 §5.3.3). */
export const SHA256_INITIAL_STATE: readonly number[] = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The message schedule W0…W63 of one block (FIPS 180-4 §6.2.2 step 1), into `schedule`. */
export function expandBlock(block: Int32Array, schedule: Int32Array): void {
  for (let t = 0; t < 16; t++) schedule[t] = block[t];
  for (let t = 16; t < 64; t++) {
    const w15 = schedule[t - 15];
    const w2 = schedule[t - 2];
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    schedule[t] = ((schedule[t - 16]) + s0 + (schedule[t - 7]) + s1) | 0;
  }
}

/**
 * The 64 rounds over an expanded block, added into `state` (steps 2–4). Four rounds per pass with
 * the working variables renamed instead of shifted, and Ch/Maj in their three-operation forms:
 * ~15% faster than the textbook loop in V8.
 */
export function compressExpanded(state: Int32Array, w: Int32Array): void {
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let t = 0; t < 64; t += 4) {
    let t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + (K[t]) + (w[t])) | 0;
    d = (d + t1) | 0;
    h = (t1 + ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b))))) | 0;
    t1 = (g + (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) + (f ^ (d & (e ^ f))) + (K[t + 1]) + (w[t + 1])) | 0;
    c = (c + t1) | 0;
    g = (t1 + ((((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a))))) | 0;
    t1 = (f + (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) + (e ^ (c & (d ^ e))) + (K[t + 2]) + (w[t + 2])) | 0;
    b = (b + t1) | 0;
    f = (t1 + ((((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h))))) | 0;
    t1 = (e + (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) + (d ^ (b & (c ^ d))) + (K[t + 3]) + (w[t + 3])) | 0;
    a = (a + t1) | 0;
    e = (t1 + ((((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g))))) | 0;
    // After four rounds the roles have rotated by four: (a…h) are now held by (e f g h a b c d).
    const ta = a;
    const tb = b;
    const tc = c;
    const td = d;
    a = e;
    b = f;
    c = g;
    d = h;
    e = ta;
    f = tb;
    g = tc;
    h = td;
  }
  state[0] = ((state[0]) + a) | 0;
  state[1] = ((state[1]) + b) | 0;
  state[2] = ((state[2]) + c) | 0;
  state[3] = ((state[3]) + d) | 0;
  state[4] = ((state[4]) + e) | 0;
  state[5] = ((state[5]) + f) | 0;
  state[6] = ((state[6]) + g) | 0;
  state[7] = ((state[7]) + h) | 0;
}

const schedule = new Int32Array(64);

/** Compresses one block (16 big-endian words) into `state`. */
export function compressBlock(state: Int32Array, block: Int32Array): void {
  expandBlock(block, schedule);
  compressExpanded(state, schedule);
}

/** 16 big-endian words of `bytes[offset…offset+64)`. */
export function blockWords(bytes: Uint8Array, offset: number, block: Int32Array): void {
  for (let i = 0; i < 16; i++) {
    const at = offset + 4 * i;
    block[i] = ((bytes[at]) << 24) | ((bytes[at + 1]) << 16) | ((bytes[at + 2]) << 8) | (bytes[at + 3]);
  }
}
