import { createHash } from 'node:crypto';

/**
 * Host key fingerprints exactly as OpenSSH prints them (`ssh-keygen -lf`, `ssh -v`): "SHA256:"
 * then the base64 of SHA-256 over the public key blob as sent on the wire, without '=' padding.
 * Administrators copy that text into the policy, so it is the only form we compare.
 */
export function hostKeyFingerprint(keyBlob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** "SHA256:" + 43 base64 characters (32 bytes); the policy schema also lets a '=' pad through. */
const PINNED_FORM = /^SHA256:([A-Za-z0-9+/]{43})=?$/;

/** The comparable part of a pinned fingerprint, or null when it is not in OpenSSH's SHA256 form. */
export function pinnedDigest(pinned: string): string | null {
  return PINNED_FORM.exec(pinned.trim())?.[1] ?? null;
}

export function matchesPin(keyBlob: Uint8Array, pinned: string): boolean {
  const digest = pinnedDigest(pinned);
  return digest !== null && hostKeyFingerprint(keyBlob) === `SHA256:${digest}`;
}

/**
 * The key type named at the start of the blob ("ssh-ed25519", "ssh-rsa", …): shown next to a
 * mismatching fingerprint so an administrator who pinned the server's RSA key sees that it
 * presented its ED25519 key instead.
 */
export function hostKeyType(keyBlob: Uint8Array): string {
  if (keyBlob.length < 4) return 'unknown';
  const length = ((keyBlob[0]! << 24) | (keyBlob[1]! << 16) | (keyBlob[2]! << 8) | keyBlob[3]!) >>> 0;
  if (length === 0 || length > 64 || 4 + length > keyBlob.length) return 'unknown';
  const name = Buffer.from(keyBlob.subarray(4, 4 + length)).toString('latin1');
  return /^[\x21-\x7e]+$/.test(name) ? name : 'unknown';
}
