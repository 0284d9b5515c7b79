import Ajv2020 from 'ajv/dist/2020';
import { admitExternalSchema } from '../../electron/main/policy/external-schema';
import { externalAjv } from '../../electron/main/policy/external-schema-ajv';
import { printRows, ratioLine, timeRuns } from './lib/stats';

/**
 * SPEC X-SCHEMA "go beyond the seed": a pattern that passes every shape rule can still backtrack
 * exponentially in JavaScript's RegExp; with RE2 as ajv's regExp it cannot. `^(\w|\d)*z$` has one
 * unbounded quantifier and no repeated group holding one, so admitExternalSchema admits it; on a
 * run of digits each digit matches both branches, so a backtracking engine tries ~2^n splits before
 * it can say "no z". Both validators below are ajv compiling the same admitted schema; only the
 * regExp engine differs. The input is sent past maxLength on purpose: ajv (allErrors) evaluates the
 * pattern even when maxLength has already failed, as the gate's WARN mode for external tools does.
 *
 * JavaScript's RegExp stops at n=22 (about 0.1 s there, ×2 per character) so the bench ends in
 * seconds; RE2 goes on to 1 000 000 characters (after a warm-up: re2js's per-character cost falls
 * by 3–5× once the JIT has compiled its matcher, which would otherwise read as growth).
 */
const PATTERN = '^(\\w|\\d)*z$';
const JS_LENGTHS = [12, 14, 16, 18, 20, 22];
const RE2_LENGTHS = [...JS_LENGTHS, 1_000, 10_000, 100_000, 1_000_000];
const SUPERLINEAR_MIN = 8;
/**
 * Linear means a constant cost per character. Across 100× the length a 1 MB string leaves the CPU
 * caches, so allow 3×; quadratic growth would show as 100×.
 */
const RE2_PER_CHAR_MAX = 3;

function main(): void {
  const admitted = admitExternalSchema({ type: 'object', properties: { code: { type: 'string', maxLength: 64, pattern: PATTERN } } }, 'en');
  if (!admitted.ok) throw new Error(`the bench pattern must pass the shape rules: ${admitted.violations.map((v) => v.message).join('; ')}`);
  console.log(`pattern ${PATTERN}: admitted by the shape rules (dialect ${admitted.dialect})`);

  const withRegExp = new Ajv2020({ allErrors: true, strict: false }).compile(admitted.schema);
  const withRe2 = externalAjv(admitted.dialect).compile(admitted.schema);
  // The 'z' is there so that no engine can answer by noticing it is missing; the '!' after it still fails '$'.
  const input = (n: number) => ({ code: `${'1'.repeat(n)}z!` });

  const time = async (validate: (data: unknown) => boolean, n: number, runs: number) => {
    const data = input(n);
    if (validate(data)) throw new Error(`n=${n} must not match`);
    // The fastest run: on a shared machine the slower ones measure the neighbours, not the engine.
    return Math.min(...(await timeRuns(runs, () => validate(data))));
  };

  return void (async () => {
    const js = new Map<number, number>();
    const re2 = new Map<number, number>();
    for (const n of JS_LENGTHS) js.set(n, await time(withRegExp, n, n >= 20 ? 3 : 7));
    await timeRuns(30, () => withRe2(input(100_000)), 0);
    for (const n of RE2_LENGTHS) re2.set(n, await time(withRe2, n, n >= 1_000_000 ? 5 : 21));

    printRows(
      'ajv validate time (ms, fastest run) by input length',
      RE2_LENGTHS.map((n) => ({ n, 'JS RegExp': js.get(n) ?? Number.NaN, RE2: re2.get(n) ?? Number.NaN, 'RE2 µs/char': ((re2.get(n) ?? Number.NaN) * 1000) / n })),
    );

    const first = JS_LENGTHS[0] as number;
    const last = JS_LENGTHS[JS_LENGTHS.length - 1] as number;
    const growth = (js.get(last) as number) / (js.get(first) as number);
    console.log(
      `JS RegExp t(n=${last})/t(n=${first}) = ${growth.toFixed(1)} (linear would be ${(last / first).toFixed(2)}; super-linear target ≥ ${SUPERLINEAR_MIN}) ${growth >= SUPERLINEAR_MIN ? 'MET' : 'NOT MET'}`,
    );
    const perChar = (n: number) => (re2.get(n) as number) / n;
    console.log(ratioLine({ label: 'RE2 per-character time n=1000000 / n=10000', ours: perChar(1_000_000), theirs: perChar(10_000), maxRatio: RE2_PER_CHAR_MAX }));
    console.log(ratioLine({ label: `RE2/JS RegExp at n=${last}`, ours: re2.get(last) as number, theirs: js.get(last) as number, maxRatio: 0.1 }));
  })();
}

main();
