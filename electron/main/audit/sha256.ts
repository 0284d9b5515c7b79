import crypto from 'node:crypto';

/**
 * SHA-256 as lowercase hex in one native call where Node has crypto.hash (≥ 20.12, and Electron's
 * Node) rather than createHash's three. A namespace import: a named import of `hash` would not even
 * load on Node 20.6–20.11. Used on every audit row (entry hashes, verification) and several times
 * per gate call (argument, approval and output digests).
 */
export const sha256Hex: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex');
