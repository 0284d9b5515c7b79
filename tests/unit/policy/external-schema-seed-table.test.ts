import { describe, expect, it } from 'vitest';
import { text } from '../../../electron/common/i18n';
import { ExternalSchemaRefused, ToolRegistry } from '../../../electron/main/gate/registry';
import { SchemaValidator } from '../../../electron/main/gate/schema-validator';
import { admitExternalSchema } from '../../../electron/main/policy/external-schema';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { ok } from '../../../tools/kit/results';

/**
 * The seed ADR-0012's measured table (JDK 21 java.util.regex, HANG = not done in 3 s), row by row.
 * Each row is registered the way an MCP server would send it: a string field with the pattern and
 * the largest maxLength the budget allows.
 *
 * The two rows the rules admit although they hang at n=1000/10000 are the seed's own decision:
 * `maxLength` ≤ 256 keeps their input below the measured blow-up, and here RE2 evaluates them in
 * linear time besides. The same rows with a maxLength that reaches the blow-up are refused.
 */
type Measured = `${number}ms` | 'HANG';
interface Row {
  readonly pattern: string;
  readonly n100: Measured;
  readonly n1000: Measured;
  readonly n10000: Measured;
  /** The rule that refuses it, or null when it is admitted. */
  readonly refusedBy: string | null;
}

const SEED_TABLE: readonly Row[] = [
  { pattern: 'a*a*b', n100: '4ms', n1000: '481ms', n10000: 'HANG', refusedBy: null },
  { pattern: 'a*a*a*b', n100: '17ms', n1000: 'HANG', n10000: 'HANG', refusedBy: null },
  { pattern: 'a*a*a*a*b', n100: '432ms', n1000: 'HANG', n10000: 'HANG', refusedBy: 'too-many-unbounded' },
  { pattern: 'a*a*a*a*a*b', n100: 'HANG', n1000: 'HANG', n10000: 'HANG', refusedBy: 'too-many-unbounded' },
  { pattern: '(.*,){11}P', n100: 'HANG', n1000: 'HANG', n10000: 'HANG', refusedBy: 'nested-unbounded-repeat' },
  { pattern: '(x+x+)+y', n100: '5ms', n1000: 'HANG', n10000: 'HANG', refusedBy: 'nested-unbounded-repeat' },
  { pattern: '^[^@ ]+@[^@ ]+$', n100: '4ms', n1000: '4ms', n10000: '4ms', refusedBy: null },
  { pattern: '^([A-Z]{3}-)+[0-9]+$', n100: '1ms', n1000: '1ms', n10000: '1ms', refusedBy: null },
];

function toolSchema(pattern: string, maxLength: number): Record<string, unknown> {
  return { type: 'object', properties: { value: { type: 'string', maxLength, pattern } }, required: ['value'], additionalProperties: false };
}

/** The input each row's measurement was about: the overlapping prefix without the final match. */
function adversarial(pattern: string, n: number): string {
  if (pattern.startsWith('(.*,)')) return ','.repeat(n);
  if (pattern.startsWith('(x+x+)')) return 'x'.repeat(n);
  if (pattern.startsWith('^[^@')) return `${'a'.repeat(n)}@`;
  if (pattern.startsWith('^([A-Z]')) return 'ABC-'.repeat(Math.ceil(n / 4)).slice(0, n);
  return 'a'.repeat(n);
}

function mcpTool(name: string, input: Record<string, unknown>): AnyTool {
  return Object.freeze({
    name,
    description: text('시험', 'test'),
    keywords: [],
    input,
    risk: 'execute',
    subject: null,
    concurrency: 'exclusive',
    capabilities: [],
    summarize: () => text('시험', 'test'),
    execute: async () => ok(''),
  }) as unknown as AnyTool;
}

describe('the seed ADR-0012 table, at registration', () => {
  it('the tool registry itself refuses each refused row and registers each admitted one (one server, row by row)', () => {
    const registry = new ToolRegistry([]);
    SEED_TABLE.forEach((row, i) => {
      const add = () => registry.add(mcpTool(`mcp.seed.row${i}`, toolSchema(row.pattern, 256)), 'mcp:seed');
      if (row.refusedBy) {
        expect(add, row.pattern).toThrow(ExternalSchemaRefused);
        expect(add, row.pattern).toThrow(`[${row.refusedBy}]`);
      } else add();
    });
    expect(registry.names()).toEqual(SEED_TABLE.flatMap((row, i) => (row.refusedBy ? [] : [`mcp.seed.row${i}`])));
  });

  it('lists every measured row (the table is the test data, not a sample of it)', () => {
    expect(SEED_TABLE).toHaveLength(8);
  });

  for (const row of SEED_TABLE) {
    const hangsWithin100 = row.n100 === 'HANG';
    const label = `${row.pattern} (n=100 ${row.n100}, n=1000 ${row.n1000}, n=10000 ${row.n10000})`;
    if (row.refusedBy) {
      it(`refuses ${label} with ${row.refusedBy}, at the pattern's JSON path`, () => {
        const r = admitExternalSchema(toolSchema(row.pattern, 256), 'en');
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.violations).toEqual([{ rule: row.refusedBy, path: '/properties/value/pattern', message: expect.stringContaining(`[${row.refusedBy}]`), text: { ko: expect.stringContaining(`[${row.refusedBy}]`), en: expect.stringContaining(`[${row.refusedBy}]`) } }]);
      });
    } else {
      it(`admits ${label} with maxLength 256, and evaluates it on RE2 even past the bound`, () => {
        expect(hangsWithin100).toBe(false);
        const r = admitExternalSchema(toolSchema(row.pattern, 256), 'en');
        expect(r).toMatchObject({ ok: true });
        if (!r.ok) return;
        const validator = new SchemaValidator();
        validator.register('mcp.seed.row', r.schema, r.dialect);
        // 256 is the most the schema lets through; 10000 is the seed's HANG column. ajv runs the
        // pattern even when maxLength already failed (allErrors), so only RE2 keeps this finite.
        for (const n of [256, 10_000]) {
          const check = validator.check('mcp.seed.row', { value: adversarial(row.pattern, n) });
          const keywords = check.violations.map((v) => v.keyword);
          // Every adversarial input misses the pattern: the match ran to the end and said no.
          expect(keywords).toContain('pattern');
          if (n > 256) expect(keywords).toContain('maxLength');
        }
      });
      if (row.n1000 === 'HANG' || row.n10000 === 'HANG') {
        it(`refuses ${row.pattern} when its maxLength reaches the measured blow-up (1000)`, () => {
          const r = admitExternalSchema(toolSchema(row.pattern, 1000), 'en');
          expect(r.ok).toBe(false);
          if (r.ok) return;
          expect(r.violations.map((v) => [v.rule, v.path])).toEqual([['pattern-needs-maxlength', '/properties/value/maxLength']]);
        });
      }
    }
  }

  it('refuses every row that hangs at n=100 (the smallest measured size, inside the 256 bound)', () => {
    const hangingAt100 = SEED_TABLE.filter((row) => row.n100 === 'HANG');
    expect(hangingAt100.length).toBeGreaterThan(0);
    for (const row of hangingAt100) expect(admitExternalSchema(toolSchema(row.pattern, 256)).ok).toBe(false);
  });

  it('admits every row that was fast at every size', () => {
    const fast = SEED_TABLE.filter((row) => [row.n100, row.n1000, row.n10000].every((m) => m !== 'HANG'));
    expect(fast.map((r) => r.pattern)).toEqual(['^[^@ ]+@[^@ ]+$', '^([A-Z]{3}-)+[0-9]+$']);
    for (const row of fast) expect(admitExternalSchema(toolSchema(row.pattern, 256)).ok).toBe(true);
  });

  it("the seed's finding: the textbook nested quantifier ^(a+)+$ is refused too (shape, not measured speed)", () => {
    const r = admitExternalSchema(toolSchema('^(a+)+$', 256), 'en');
    expect(r.ok ? [] : r.violations.map((v) => v.rule)).toEqual(['nested-unbounded-repeat']);
  });
});
