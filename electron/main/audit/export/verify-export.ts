import { parseCheckpoint, type Checkpoint } from '../checkpoint/checkpoint';
import { ChainVerifier, type LedgerVerdict, type VerifyOptions } from '../ledger/verify-rows';
import { readJsonlExport, type JsonlHeader } from './jsonl';

export interface ExportVerdict {
  readonly header: JsonlHeader;
  readonly verdict: LedgerVerdict;
  /** Checkpoints given that lie beyond the export's last row and so could not be checked. */
  readonly checkpointsOutOfRange: number;
}

/**
 * Verifies a JSONL export on its own — another machine, no database: the rows form an unbroken
 * chain from the header's first seq to its last, the embedded checkpoint (and any the auditor
 * kept) match, and with the verification key every seal checks. The chain's start is taken as
 * given (an export may begin mid-ledger); whoever needs to know it is the real start compares it
 * with a checkpoint they kept.
 */
export function verifyExportFile(file: string, options: VerifyOptions = {}): ExportVerdict {
  const { header, rows } = readJsonlExport(file);
  const all: Checkpoint[] = [parseCheckpoint(header.checkpoint), ...(options.checkpoints ?? [])];
  const inRange = all.filter((c) => c.size <= header.toSeq);
  const verifier = new ChainVerifier({ ...options, checkpoints: inRange }, true);
  for (const row of rows) {
    if (!verifier.push(row)) break;
  }
  return { header, verdict: checkBounds(verifier.finish(), header), checkpointsOutOfRange: all.length - inRange.length };
}

/** The header's seq range must be exactly the rows present: a cut file is reported, not passed. */
function checkBounds(verdict: LedgerVerdict, header: JsonlHeader): LedgerVerdict {
  if (!verdict.ok) return verdict;
  if (verdict.rows === 0 || verdict.firstSeq !== header.fromSeq) {
    return { ok: false, firstBadSeq: header.fromSeq, reason: 'missing', detail: `The export says it starts at seq ${header.fromSeq}, but its first row is ${verdict.rows === 0 ? 'absent' : `seq ${verdict.firstSeq}`}.` };
  }
  if (verdict.lastSeq !== header.toSeq) {
    return { ok: false, firstBadSeq: verdict.lastSeq + 1, reason: 'truncated', detail: `The export says it ends at seq ${header.toSeq}, but its last row is seq ${verdict.lastSeq}: the file was cut.` };
  }
  return verdict;
}
