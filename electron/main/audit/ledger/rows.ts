/** What the ledger, its verifier and its exports say about rows, independent of where rows are stored. */

/** One stored row exactly as written; `body` is the canonical JSON text that was hashed. */
export interface LedgerRow {
  readonly seq: number;
  readonly body: string;
  readonly prevHash: string;
  readonly entryHash: string;
  /** Sealing epoch (UTC day) whose key produced `mac`. */
  readonly epoch: number;
  readonly mac: string;
}

export interface LedgerHead {
  readonly seq: number;
  readonly entryHash: string;
  readonly epoch: number;
}

/** Row type written when the sealing epoch changes (audit-ledger.ts). */
export const SEAL_EVENT = 'audit.seal';

export interface SealEvent {
  readonly sealedEpoch: number;
  readonly nextEpoch: number;
}

/**
 * The seal data of a row body, or undefined when the row is not a seal. The cheap text test first:
 * this runs at every epoch change during verification, which must stay fast on a million rows.
 */
export function readSealEvent(body: string): SealEvent | undefined {
  if (!body.includes(`"type":"${SEAL_EVENT}"`)) return undefined;
  try {
    const parsed = JSON.parse(body) as { type?: unknown; data?: { sealedEpoch?: unknown; nextEpoch?: unknown } };
    if (parsed.type !== SEAL_EVENT) return undefined;
    const { sealedEpoch, nextEpoch } = parsed.data ?? {};
    if (typeof sealedEpoch !== 'number' || typeof nextEpoch !== 'number') return undefined;
    return { sealedEpoch, nextEpoch };
  } catch {
    return undefined;
  }
}
