import type { Checkpoint } from '../checkpoint/checkpoint';
import { localCheckpoints } from '../checkpoint/checkpoint-files';
import { verifyTolerantOfSlips } from '../checkpoint/mistyped';
import { ledgerSegments, readLedgerRows } from './read-rows';
import { ChainVerifier, type LedgerVerdict, type VerifyOptions } from './verify-rows';

/**
 * Verifies the ledger folder `dir`: every segment oldest first, as one chain (verify-rows.ts), on
 * the calling thread, streaming (a million rows in well under the 30 s target,
 * tests/bench/audit-verify.bench.ts).
 *
 * The checkpoints kept in the folder itself (checkpoints/) are checked along with any the caller
 * passes: rows cut from the end of the ledger show as `truncated` even when nobody brought a copy
 * from off the machine. A local file is no proof against someone who can also delete checkpoint
 * files (only the printed copies are); it does catch a ledger cut back or restored from an older
 * copy while the folder kept its newer checkpoints.
 */
export function verifyLedger(dir: string, options: VerifyOptions = {}): LedgerVerdict {
  const local = localCheckpoints(dir);
  return verifyTolerantOfSlips((given) => verifyOnce(dir, options, given, local), options.checkpoints ?? [], () => readLedgerRows(dir), options.key);
}

/** Rows verified between two hand-backs of the event loop in verifyLedgerInTurns (a few ms of work). */
const ROWS_PER_TURN = 2_000;

/**
 * verifyLedger for a process that must stay responsive: the window's main process, where a
 * million rows verified in one piece would freeze the window for a minute. The same walk, the
 * event loop handed back (a macrotask) every ROWS_PER_TURN rows; each segment is still read in
 * one snapshot on its own read-only connection, so rows the session appends meanwhile are not
 * seen and cannot disturb the verdict. Only the folder's own checkpoints are checked: the window
 * takes no typed ones, so there are no typing slips to tolerate.
 */
export async function verifyLedgerInTurns(dir: string, options: Omit<VerifyOptions, 'checkpoints'> = {}): Promise<LedgerVerdict> {
  const verifier = verifierFor(options, [], localCheckpoints(dir));
  let sinceTurn = 0;
  for (const row of readLedgerRows(dir)) {
    if (++sinceTurn === ROWS_PER_TURN) {
      sinceTurn = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (!verifier.push(row, row.startsSegment)) break;
  }
  return verifier.finish();
}

function verifierFor(options: VerifyOptions, given: readonly Checkpoint[], local: readonly Checkpoint[]): ChainVerifier {
  // The same checkpoint given and found locally is checked once.
  const checkpoints = new Map(given.map((c) => [c.body, c]));
  for (const own of local) if (!checkpoints.has(own.body)) checkpoints.set(own.body, own);
  return new ChainVerifier({ ...options, checkpoints: [...checkpoints.values()] });
}

function verifyOnce(dir: string, options: VerifyOptions, given: readonly Checkpoint[], local: readonly Checkpoint[]): LedgerVerdict {
  const verifier = verifierFor(options, given, local);
  read: for (const { rows, startsSegment } of ledgerSegments(dir)) {
    let first = startsSegment;
    for (const row of rows) {
      if (!verifier.push(row, first)) break read;
      first = false;
    }
  }
  return verifier.finish();
}
