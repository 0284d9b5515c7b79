import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../../electron/main/gate/schema-validator';

const withPattern = (pattern: string) => ({
  type: 'object',
  properties: { code: { type: 'string', pattern, maxLength: 100_000, description: 'code' } },
  required: ['code'],
  additionalProperties: false,
});

describe('SchemaValidator pattern engine (RE2)', () => {
  it('keeps each schema\'s own pattern (ajv caches compiled patterns by their text)', () => {
    const v = new SchemaValidator();
    v.register('a.tool', withPattern('^a+$'));
    v.register('b.tool', withPattern('^b+$'));
    expect(v.check('a.tool', { code: 'aaa' }).violations).toEqual([]);
    expect(v.check('b.tool', { code: 'bbb' }).violations).toEqual([]);
    expect(v.check('b.tool', { code: 'aaa' }).violations).toHaveLength(1);
  });

  it('evaluates a catastrophic-backtracking pattern in linear time', () => {
    const v = new SchemaValidator();
    v.register('evil.tool', withPattern('^(a+)+$'));
    const started = performance.now();
    const result = v.check('evil.tool', { code: `${'a'.repeat(50_000)}!` });
    // V8's backtracking engine would not finish this in our lifetime; RE2 takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.violations[0]?.message).toBe("Parameter 'code' must match pattern \"^(a+)+$\". The tool was not executed.");
  });

  it('reports nested parameters with their path', () => {
    const v = new SchemaValidator();
    v.register('n.tool', {
      type: 'object',
      properties: { args: { type: 'array', items: { type: 'string' }, description: 'argv' } },
      additionalProperties: false,
    });
    expect(v.check('n.tool', { args: ['ok', 3] }).violations.map((x) => x.message)).toEqual([
      "Parameter 'args[1]' must be a string. The tool was not executed.",
    ]);
  });
});
