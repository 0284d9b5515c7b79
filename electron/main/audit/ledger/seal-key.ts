import { closeSync, constants, fsyncSync, linkSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { u64 } from './bytes';
import { epochStartIso } from './epochs';

/**
 * Forward-secure sealing key (SPEC §3 "tail protection"), modelled on journald's FSS but with a
 * hash chain instead of its FSPRG: K(e+1) = SHA-256(domain ‖ e+1 ‖ K(e)). Whoever holds K(e) can
 * compute every later key but no earlier one, so once the machine has moved on to epoch e and
 * erased K(e-1), rows MAC'd in earlier epochs cannot be re-forged — even by someone who later owns
 * the machine. Security staff keep K(start) (the verification key) off the machine; with it
 * `baram audit verify --key` recomputes every epoch's key.
 */
const EVOLVE_DOMAIN = 'baram-audit-key-evolve-v1';
/** Domain of the row MAC. */

const ROW_MAC_DOMAIN = 'baram-audit-row-mac-v1';
const VERIFICATION_KEY_PREFIX = 'baram-k0-v1';
const KEY_BYTES = 32;

export interface SealKey {
  readonly epoch: number;
  /** Never logged, never sent anywhere. Zeroed when the key evolves. */
  readonly key: Buffer;
}

export function newInitialKey(epoch: number): SealKey {
  return { epoch, key: randomBytes(KEY_BYTES) };
}

/** The key of `toEpoch`, derived forward. The caller's buffer is left alone; see `evolveInPlace` for erasing. */
export function deriveKey(from: SealKey, toEpoch: number): SealKey {
  if (toEpoch < from.epoch) throw new RangeError(`A sealing key only evolves forward (epoch ${from.epoch} → ${toEpoch}).`);
  let key = Buffer.from(from.key);
  for (let epoch = from.epoch + 1; epoch <= toEpoch; epoch += 1) {
    const next = createHash('sha256').update(EVOLVE_DOMAIN).update(u64(epoch)).update(key).digest();
    key.fill(0);
    key = next;
  }
  return { epoch: toEpoch, key };
}

/** ROW_MAC_DOMAIN ‖ epoch u64 ‖ entry hash (32 bytes): one reused buffer, one HMAC update (single-threaded). */
const ROW_MAC_INPUT = Buffer.alloc(ROW_MAC_DOMAIN.length + 8 + 32);
ROW_MAC_INPUT.write(ROW_MAC_DOMAIN, 0, 'latin1');
const HASH_HEX = /^[0-9a-f]{64}$/i;

function rowMacBytes(key: SealKey, entryHash: string): Buffer {
  if (!HASH_HEX.test(entryHash)) throw new RangeError('An entry hash is 64 hex characters.');
  ROW_MAC_INPUT.writeBigUInt64BE(BigInt(key.epoch), ROW_MAC_DOMAIN.length);
  ROW_MAC_INPUT.write(entryHash, ROW_MAC_DOMAIN.length + 8, 'hex');
  return createHmac('sha256', key.key).update(ROW_MAC_INPUT).digest();
}

/** MAC of one row: binds the epoch (so a row cannot be relabelled into another epoch) and its entry hash. */
export function rowMac(key: SealKey, entryHash: string): string {
  return rowMacBytes(key, entryHash).toString('hex');
}

/** Whether `mac` (hex, as stored) is the row MAC of `entryHash` under `key`; compared in constant time. */
export function rowMacMatches(key: SealKey, entryHash: string, mac: string): boolean {
  if (!HASH_HEX.test(mac) || !HASH_HEX.test(entryHash)) return false;
  return timingSafeEqual(rowMacBytes(key, entryHash), Buffer.from(mac, 'hex'));
}

/** HMAC of any text under an epoch key (checkpoint signatures). */
export function textMac(key: SealKey, domain: string, text: string): Buffer {
  return createHmac('sha256', key.key).update(domain).update(u64(key.epoch)).update(text, 'utf8').digest();
}

/** `baram-k0-v1:<start epoch>:<64 hex>` — one line security staff can print, copy or type. */
export function formatVerificationKey(key: SealKey): string {
  return `${VERIFICATION_KEY_PREFIX}:${key.epoch}:${key.key.toString('hex')}`;
}

export function parseVerificationKey(text: string): SealKey {
  const match = /^baram-k0-v1:(\d{1,9}):([0-9a-f]{64})$/.exec(text.trim().toLowerCase());
  if (!match) {
    throw new Error(
      `검증 키 형식이 아닙니다. 설치할 때 받은 'baram-k0-v1:<숫자>:<64자리 16진수>' 한 줄을 그대로 넣으세요. / Not a verification key: pass the single line 'baram-k0-v1:<number>:<64 hex digits>' you were given at setup.`,
    );
  }
  return { epoch: Number(match[1]), key: Buffer.from(match[2] ?? '', 'hex') };
}

export function describeKeyStart(key: SealKey): string {
  return `epoch ${key.epoch} (${epochStartIso(key.epoch)})`;
}

/*
 * The key file: magic ‖ epoch (u64 BE) ‖ key ‖ SHA-256 of the preceding bytes. 80 bytes, always
 * rewritten IN PLACE at offset 0 and fsync'd: the old key's bytes are overwritten rather than left
 * in a freed block, as they would be by write-temp-and-rename (journald's FSS does the same). A
 * single 80-byte write lies within one sector, which disks write atomically, so a crash leaves
 * either the old or the new key. Copy-on-write file systems and SSD wear levelling may still keep
 * old blocks — see docs/2026-12-02-audit-forward-secure-seals.md.
 */
const MAGIC = Buffer.from('BRMKEY01', 'ascii');
const FILE_BYTES = MAGIC.length + 8 + KEY_BYTES + 32;

export class SealKeyFile {
  private constructor(
    readonly path: string,
    private current: SealKey,
  ) {}

  /** Creates the key file (never overwrites one); returns the file and the initial key to show once. */
  static create(path: string, epoch: number): { file: SealKeyFile; initial: SealKey } {
    const initial = newInitialKey(epoch);
    // Written complete under a temporary name, then linked into place: a crash never leaves an
    // empty or half key file at `path` (which would make the ledger refuse to open forever), and
    // link() fails if another process created the key first.
    const temp = `${path}.${process.pid}.new`;
    const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      writeSync(fd, encodeKeyFile(initial), 0, FILE_BYTES, 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, path);
    } finally {
      rmSync(temp, { force: true });
    }
    return { file: new SealKeyFile(path, deriveKey(initial, epoch)), initial };
  }

  static read(path: string): SealKeyFile {
    return new SealKeyFile(path, readKeyFile(path));
  }

  get key(): SealKey {
    return this.current;
  }

  /** Re-reads the file (another Baram process on the same data folder may have evolved it). */
  reload(): SealKey {
    const fresh = readKeyFile(this.path);
    if (fresh.epoch > this.current.epoch) this.replace(fresh);
    else fresh.key.fill(0);
    return this.current;
  }

  /** Moves to `epoch`, overwriting the old key on disk and in memory. */
  evolveTo(epoch: number): SealKey {
    if (epoch <= this.current.epoch) return this.current;
    const next = deriveKey(this.current, epoch);
    const fd = openSync(this.path, constants.O_WRONLY);
    try {
      writeSync(fd, encodeKeyFile(next), 0, FILE_BYTES, 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.replace(next);
    return next;
  }

  /** Forgets the key in memory (the ledger is closing). */
  erase(): void {
    this.current.key.fill(0);
  }

  private replace(next: SealKey): void {
    this.current.key.fill(0);
    this.current = next;
  }
}

function encodeKeyFile(key: SealKey): Buffer {
  const head = Buffer.concat([MAGIC, u64(key.epoch), key.key]);
  return Buffer.concat([head, createHash('sha256').update(head).digest()]);
}

function readKeyFile(path: string): SealKey {
  const fd = openSync(path, constants.O_RDONLY);
  const bytes = Buffer.alloc(FILE_BYTES);
  try {
    readSync(fd, bytes, 0, FILE_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const head = bytes.subarray(0, FILE_BYTES - 32);
  const sum = bytes.subarray(FILE_BYTES - 32);
  if (!head.subarray(0, MAGIC.length).equals(MAGIC) || !createHash('sha256').update(head).digest().equals(sum)) {
    throw new Error(`The audit sealing key ${path} is damaged; the ledger cannot seal new records. Restore it from a backup of the data folder or ask security staff to re-initialise auditing.`);
  }
  const epoch = Number(head.readBigUInt64BE(MAGIC.length));
  return { epoch, key: Buffer.from(head.subarray(MAGIC.length + 8)) };
}
