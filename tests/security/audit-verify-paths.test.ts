import { describe, expect, it } from 'vitest';
import { verifyLedger, type VerifyTuning } from '../../electron/main/audit/ledger/verify';
import type { LedgerVerdict, VerifyOptions } from '../../electron/main/audit/ledger/verify-rows';
import { legacyVerifyLedger } from '../helpers/legacy-chain-verifier';
import { TAMPER_CASES, type TamperedLedger } from '../helpers/tampered-ledgers';
import { useTempLedgerDirs } from '../unit/audit/ledger-helpers';

/**
 * verifyLedger reads a ledger in batches, checks most rows on a fast path and splits big ledgers
 * into parts checked on several threads. Whichever way it goes, the verdict must be the one the
 * verifier gave before any of that (legacy-chain-verifier.ts): same ok/reason/first bad seq/detail,
 * same counts. Parts of 1–5 rows and batches of 1–3 seqs put part and batch boundaries at every
 * row, so every tamper lands on one.
 */
const newDir = useTempLedgerDirs();

const optionSets = (ledger: TamperedLedger): [string, VerifyOptions][] => [
  ['without the key', {}],
  ['with the key', { key: ledger.key }],
  ['with checkpoints', { checkpoints: ledger.checkpoints }],
  ['with the key and checkpoints', { key: ledger.key, checkpoints: ledger.checkpoints }],
];

const IN_PROCESS_PATHS: [string, VerifyTuning][] = [
  ['rows', { path: 'rows' }],
  ['rows, batches of 3', { path: 'rows', batchSeqs: 3 }],
  ['rows, batches of 1', { path: 'rows', batchSeqs: 1 }],
  ['parts of 1 row', { path: 'parts', workers: 0, chunkRows: 1 }],
  ['parts of 2, batches of 2', { path: 'parts', workers: 0, chunkRows: 2, batchSeqs: 2 }],
  ['parts of 5', { path: 'parts', workers: 0, chunkRows: 5 }],
];

type Outcome = { readonly verdict: LedgerVerdict } | { readonly threw: string };

function outcomeOf(verify: () => LedgerVerdict): Outcome {
  try {
    return { verdict: verify() };
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
}

describe('every verify path gives the verdict of the row-by-row verifier', () => {
  it.each(TAMPER_CASES.map((c) => [c.name, c] as const))('%s', async (_name, tamperCase) => {
    const ledger = await tamperCase.make(newDir());
    for (const [withWhat, options] of optionSets(ledger)) {
      const expected = outcomeOf(() => legacyVerifyLedger(ledger.dir, options));
      for (const [path, tuning] of IN_PROCESS_PATHS) {
        expect({ path, withWhat, ...outcomeOf(() => verifyLedger(ledger.dir, options, tuning)) }).toEqual({ path, withWhat, ...expected });
      }
    }
  });

  it('the cases cover every kind of damage the verifier names, and intact ledgers', async () => {
    const reasons = new Set<string>();
    for (const tamperCase of TAMPER_CASES) {
      const ledger = await tamperCase.make(newDir());
      for (const [, options] of optionSets(ledger)) {
        const verdict = legacyVerifyLedger(ledger.dir, options);
        reasons.add(verdict.ok ? 'ok' : verdict.reason);
      }
    }
    expect([...reasons].sort()).toEqual(['bad-checkpoint', 'bad-link', 'bad-mac', 'edited', 'missing', 'ok', 'reordered', 'rewritten', 'segment-link', 'truncated']);
  });
});

/**
 * The same through a worker thread: the calling thread checks nothing and only stitches. A worker
 * costs ~0.4 s to start from the TypeScript sources, so this runs the cases that reach every part
 * of the worker's protocol (failures that stop the other parts, checkpoints and the key carried
 * across, old and re-created segments) rather than all of them.
 */
const WORKER_CASES = new Set([
  'intact, three segments',
  'a forged checkpoint',
  'a deleted middle segment file',
  "re-sealed with the machine's current key",
  'swapped bodies across a segment boundary',
  'a seal row at a segment boundary re-chained with the current key',
  'a body that is not valid UTF-8',
  'a segment from before seals (schema 2) followed by sealed ones',
  'a table re-created without STRICT, one body stored as a number',
  'retention deleted the oldest months on record',
]);

describe('through a worker thread', () => {
  it.each(TAMPER_CASES.filter((c) => WORKER_CASES.has(c.name)).map((c) => [c.name, c] as const))('%s', async (_name, tamperCase) => {
    const ledger = await tamperCase.make(newDir());
    const options: VerifyOptions = { key: ledger.key, checkpoints: ledger.checkpoints };
    const expected = outcomeOf(() => legacyVerifyLedger(ledger.dir, options));
    let shares: { byWorkers: number; byMainThread: number } | undefined;
    const actual = outcomeOf(() => verifyLedger(ledger.dir, options, { path: 'parts', workers: 1, workersOnly: true, chunkRows: 2, batchSeqs: 3, report: (s) => (shares = s) }));
    expect(actual).toEqual(expected);
    expect(shares?.byMainThread).toBe(0);
    expect(shares?.byWorkers).toBeGreaterThan(0);
  });
});
