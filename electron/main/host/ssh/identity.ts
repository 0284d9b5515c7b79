import { open } from 'node:fs/promises';
import ssh2 from 'ssh2';
import type { SshHostPolicy } from '../../policy/types';

/**
 * How Baram logs in: public-key authentication only. No passwords (they would have to live in a
 * file the assistant's process can read, in clear), no keyboard-interactive (no human at the
 * prompt), no SSH agent (an agent would sign for every key it holds, for any host that asks).
 * The private key is the service account's own file, named per host by the administrator.
 */
export interface SshIdentity {
  /** OpenSSH, PKCS#1/#8 or PuTTY private key text. */
  readonly privateKey: Buffer;
  readonly passphrase?: string;
}

/** Supplies the identity for a policy host; null when none is configured (the call is refused). */
export type IdentityLookup = (hostName: string, host: SshHostPolicy) => Promise<SshIdentity | null>;

export type IdentityProblem = 'unreadable' | 'too-large' | 'unprotected' | 'not-a-private-key';

export class SshIdentityError extends Error {
  override readonly name = 'SshIdentityError';
  constructor(
    readonly problem: IdentityProblem,
    readonly file: string,
  ) {
    super(`SSH identity ${file}: ${problem}`);
  }
}

/** A 16384-bit RSA key in PEM is about 12 KiB; anything far larger is not a key file. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/**
 * Reads and checks a private key file (for a policy's identityFile). Like OpenSSH, a key that
 * other users could read is refused on POSIX: someone else may already have copied it. Passphrase
 * protected keys are refused too, since nobody is there to type the passphrase.
 */
export async function identityFromFile(file: string, platform: NodeJS.Platform = process.platform): Promise<SshIdentity> {
  let bytes: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new SshIdentityError('unreadable', file);
      if (info.size > MAX_KEY_FILE_BYTES) throw new SshIdentityError('too-large', file);
      if (platform !== 'win32' && (info.mode & 0o077) !== 0) throw new SshIdentityError('unprotected', file);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (e) {
    if (e instanceof SshIdentityError) throw e;
    throw new SshIdentityError('unreadable', file);
  }
  if (!isUsablePrivateKey(bytes)) throw new SshIdentityError('not-a-private-key', file);
  return { privateKey: bytes };
}

/** True when ssh2 can sign with this key as given (so a bad key fails here, not mid-handshake). */
export function isUsablePrivateKey(privateKey: Buffer, passphrase?: string): boolean {
  const parsed = ssh2.utils.parseKey(privateKey, passphrase);
  if (parsed instanceof Error) return false;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  return key !== undefined && key.isPrivateKey();
}
