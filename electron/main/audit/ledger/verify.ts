import { readLedgerRows } from './read-rows';
import { ChainVerifier, type LedgerVerdict, type VerifyOptions } from './verify-rows';

/** Verifies the ledger folder `dir`: every segment oldest first, as one chain (verify-rows.ts). */
export function verifyLedger(dir: string, options: VerifyOptions = {}): LedgerVerdict {
  const verifier = new ChainVerifier(options);
  for (const row of readLedgerRows(dir)) {
    if (!verifier.push(row, row.startsSegment)) break;
  }
  return verifier.finish();
}
