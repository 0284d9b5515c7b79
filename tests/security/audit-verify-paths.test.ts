import { describe, expect, it } from 'vitest';
import { localCheckpoints } from '../../electron/main/audit/checkpoint/checkpoint-store';
import { verifyLedger } from '../../electron/main/audit/ledger/verify';
import type { LedgerVerdict, VerifyOptions } from '../../electron/main/audit/ledger/verify-rows';
import { legacyVerifyLedger } from '../helpers/legacy-chain-verifier';
import { TAMPER_CASES, type TamperedLedger } from '../helpers/tampered-ledgers';
import { useTempLedgerDirs } from '../unit/audit/ledger-helpers';

/**
 * verifyLedger (one verifier, single-threaded, streaming through node:crypto since 2026-12-03)
 * must give the verdict of the row-by-row verifier as it was before the fast and parallel paths
 * came and went (legacy-chain-verifier.ts): same ok/reason/first bad seq/detail, same counts, over
 * every tampered ledger. verifyLedger also checks the checkpoints kept in the folder, so the
 * oracle is given those too.
 */
const newDir = useTempLedgerDirs();

const optionSets = (ledger: TamperedLedger): [string, VerifyOptions][] => [
  ['without the key', {}],
  ['with the key', { key: ledger.key }],
  ['with checkpoints', { checkpoints: ledger.checkpoints }],
  ['with the key and checkpoints', { key: ledger.key, checkpoints: ledger.checkpoints }],
];

type Outcome = { readonly verdict: LedgerVerdict } | { readonly threw: string };

function outcomeOf(verify: () => LedgerVerdict): Outcome {
  try {
    return { verdict: verify() };
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
}

/** The options as verifyLedger completes them: the given checkpoints, then the folder's own not already given. */
function withLocal(dir: string, options: VerifyOptions): VerifyOptions {
  const given = options.checkpoints ?? [];
  const local = localCheckpoints(dir).filter((c) => !given.some((g) => g.body === c.body));
  return { ...options, checkpoints: [...given, ...local] };
}

describe('verifyLedger gives the verdict of the row-by-row verifier', () => {
  it.each(TAMPER_CASES.map((c) => [c.name, c] as const))('%s', async (_name, tamperCase) => {
    const ledger = await tamperCase.make(newDir());
    for (const [withWhat, options] of optionSets(ledger)) {
      const expected = outcomeOf(() => legacyVerifyLedger(ledger.dir, withLocal(ledger.dir, options)));
      expect({ withWhat, ...outcomeOf(() => verifyLedger(ledger.dir, options)) }).toEqual({ withWhat, ...expected });
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
    // Builds every tampered ledger in turn: generous, so a busy machine does not fail it.
  }, 300_000);
});
