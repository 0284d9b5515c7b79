import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../../electron/main/gate/schema-validator';
import { admitExternalSchema } from '../../../electron/main/policy/external-schema';

function rules(schema: unknown): [string, string][] {
  const r = admitExternalSchema(schema, 'en');
  return r.ok ? [] : r.violations.map((v) => [v.rule, v.path]);
}

function withField(field: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties: { f: field } };
}

describe('admitExternalSchema: dialects', () => {
  it.each([
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
    ['https://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft/2020-12/schema', '2020-12'],
  ])('admits %s as %s, written as the id ajv knows, and it compiles in the gate', ($schema, dialect) => {
    const r = admitExternalSchema({ $schema, type: 'object', properties: { a: { type: 'string' } } });
    expect(r).toMatchObject({ ok: true, dialect });
    if (!r.ok) return;
    expect(r.schema.$schema).toBe(dialect === 'draft-07' ? 'http://json-schema.org/draft-07/schema#' : `https://json-schema.org/draft/${dialect}/schema`);
    const v = new SchemaValidator();
    v.register('mcp.t.dialect', r.schema, r.dialect);
    expect(v.check('mcp.t.dialect', { a: 1 }).violations.map((x) => x.keyword)).toEqual(['type']);
  });

  it('reads a schema without $schema as 2020-12 (MCP SEP-1613)', () => {
    expect(admitExternalSchema({ type: 'object' })).toMatchObject({ ok: true, dialect: '2020-12' });
  });

  it.each([
    'http://json-schema.org/draft-04/schema#',
    'http://json-schema.org/draft-06/schema#',
    'http://json-schema.org/schema#',
    'https://json-schema.org/draft/2030-01/schema',
    'http://127.0.0.1:9/meta.json',
    42,
  ])('refuses the unknown dialect %s with unknown-dialect at /$schema', ($schema) => {
    expect(rules({ $schema, type: 'object' })).toEqual([['unknown-dialect', '/$schema']]);
  });

  it('judges a subschema listed before the root $schema against the root dialect', () => {
    const schema = { properties: { a: { $schema: 'http://json-schema.org/draft-07/schema#' } }, $schema: 'http://json-schema.org/draft-07/schema#' };
    expect(rules(schema)).toEqual([]);
  });

  it('refuses a subschema that switches dialect', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $schema: 'https://json-schema.org/draft/2020-12/schema' } } };
    expect(rules(schema)).toEqual([['unknown-dialect', '/properties/a/$schema']]);
  });

  it('says what to write instead, in Korean by default and in English on request', () => {
    const ko = admitExternalSchema({ $schema: 'http://json-schema.org/draft-04/schema#' });
    const en = admitExternalSchema({ $schema: 'http://json-schema.org/draft-04/schema#' }, 'en');
    expect(ko.ok || ko.violations[0]?.message).toMatch(/^\[unknown-dialect\] 알 수 없는 \$schema .*2020-12/);
    expect(en.ok || en.violations[0]?.message).toMatch(/^\[unknown-dialect\] Unknown \$schema .*leave \$schema out/);
  });
});

describe('admitExternalSchema: references stay in the document', () => {
  it.each([
    ['http://intranet.example/schemas/user.json'],
    ['https://127.0.0.1/x.json#/defs/a'],
    ['user.json'],
    ['//evil.example/x'],
    ['urn:uuid:1234'],
    ['file:///etc/passwd'],
  ])('refuses $ref %s with remote-ref', (ref) => {
    expect(rules(withField({ $ref: ref }))).toEqual([['remote-ref', '/properties/f/$ref']]);
  });

  it('refuses $dynamicRef and $recursiveRef that leave the document too', () => {
    expect(rules({ $defs: { a: { $dynamicRef: 'http://x.example/a' } }, properties: { b: { $recursiveRef: 'b.json' } } })).toEqual([
      ['remote-ref', '/$defs/a/$dynamicRef'],
      ['remote-ref', '/properties/b/$recursiveRef'],
    ]);
  });

  it('admits pointers to schemas in the document, recursion and anchors, and validates through them', () => {
    const schema = {
      type: 'object',
      $defs: { name: { type: 'string', maxLength: 10 }, node: { $anchor: 'node', type: 'object', properties: { next: { $ref: '#node' } } } },
      properties: { who: { $ref: '#/$defs/name' }, tree: { $ref: '#/$defs/node' }, self: { $ref: '#' } },
    };
    const r = admitExternalSchema(schema);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = new SchemaValidator();
    v.register('mcp.t.refs', r.schema, r.dialect);
    expect(v.check('mcp.t.refs', { who: 'kim' }).violations).toEqual([]);
    expect(v.check('mcp.t.refs', { who: 'a name that is far too long' }).violations.map((x) => x.keyword)).toEqual(['maxLength']);
  });

  it("refuses a '#' pointer into a place the walk did not check as a schema (an unknown keyword, a default value)", () => {
    const schema = {
      type: 'object',
      'x-hidden': { pattern: '(a+)+$' },
      properties: { a: { $ref: '#/x-hidden' }, b: { default: { pattern: '(a+)+$' } }, c: { $ref: '#/properties/b/default' }, d: { $ref: '#missing' } },
    };
    expect(rules(schema)).toEqual([
      ['ref-target', '/properties/a/$ref'],
      ['ref-target', '/properties/c/$ref'],
      ['ref-target', '/properties/d/$ref'],
    ]);
  });

  it('refuses an $id below the root (it would move what the pointers below it mean); a root $id is fine', () => {
    expect(rules({ $id: 'https://vendor.example/tool.json', type: 'object' })).toEqual([]);
    expect(rules({ type: 'object', properties: { a: { $id: 'http://127.0.0.1:9/a.json', type: 'string' } } })).toEqual([['embedded-id', '/properties/a/$id']]);
  });

  it('does not confuse properties named $ref, pattern or patternProperties with keywords', () => {
    const schema = { type: 'object', properties: { $ref: { type: 'string' }, pattern: { type: 'string' }, patternProperties: { type: 'object' } } };
    expect(rules(schema)).toEqual([]);
  });
});

describe('admitExternalSchema: the regex budget', () => {
  it('admits a pattern of 512 characters and refuses 513 (regex-too-long)', () => {
    const at = (n: number) => withField({ type: 'string', maxLength: 256, pattern: `^${'a'.repeat(n - 2)}$` });
    expect(rules(at(512))).toEqual([]);
    expect(rules(at(513))).toEqual([['regex-too-long', '/properties/f/pattern']]);
  });

  it('refuses an expression too large once counted repeats are written out (regex-too-large), before RE2 compiles it', () => {
    const at = (pattern: string) => rules(withField({ type: 'string', maxLength: 256, pattern }));
    expect(at('.{0,1000}')).toEqual([]);
    expect(at('^.{0,1001}$')).toEqual([['regex-too-large', '/properties/f/pattern']]);
    expect(at('^(?:ab{0,100}){0,10}$')).toEqual([['regex-too-large', '/properties/f/pattern']]);
    // No unbounded quantifier at all, 465 characters: 2.4 s of RE2 compile on the main thread without the rule.
    expect(at('[\\s\\S]{0,1000}'.repeat(31))).toEqual([['regex-too-large', '/properties/f/pattern']]);
    const r = admitExternalSchema(withField({ type: 'string', maxLength: 256, pattern: '^.{0,1001}$' }));
    expect(r.ok || r.violations[0]?.message).toMatch(/^\[regex-too-large\] 반복 횟수를 풀어 쓰면 정규식 크기가 1003로, 한도 1000/);
  });

  it.each([
    ['(unclosed', 'a syntax error'],
    ['(a)\\1', 'a backreference'],
    ['(?=a)a', 'a lookahead'],
    ['(?<!a)b', 'a lookbehind'],
  ])('refuses %s (%s) with regex-does-not-compile', (pattern) => {
    expect(rules(withField({ type: 'string', maxLength: 10, pattern }))).toEqual([['regex-does-not-compile', '/properties/f/pattern']]);
  });

  it('compiles JSON Schema escapes a Korean office writes (\\uAC00-\\uD7A3) and evaluates them on RE2', () => {
    const r = admitExternalSchema(withField({ type: 'string', maxLength: 20, pattern: '^[\\uAC00-\\uD7A3]+$' }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = new SchemaValidator();
    v.register('mcp.t.hangul', r.schema, r.dialect);
    expect(v.check('mcp.t.hangul', { f: '홍길동' }).violations).toEqual([]);
    expect(v.check('mcp.t.hangul', { f: 'Hong' }).violations.map((x) => x.keyword)).toEqual(['pattern']);
  });

  it('counts quantifiers from the parse tree: * and + inside a class or escaped are characters', () => {
    expect(rules(withField({ type: 'string', maxLength: 50, pattern: '^[*+]+\\*\\+[a-z]+x*$' }))).toEqual([]);
    expect(rules(withField({ type: 'string', maxLength: 50, pattern: '^a+b+c{2,}d*$' }))).toEqual([['too-many-unbounded', '/properties/f/pattern']]);
  });

  it('refuses a repeated group holding an unbounded quantifier, at any depth, even with a bound; admits a bounded inside', () => {
    const shape = (pattern: string) => rules(withField({ type: 'string', maxLength: 50, pattern }));
    expect(shape('^(?:a|b*){2}$')).toEqual([['nested-unbounded-repeat', '/properties/f/pattern']]);
    expect(shape('^((?:x(y+))z){2,3}$')).toEqual([['nested-unbounded-repeat', '/properties/f/pattern']]);
    expect(shape('^(ab{1,5}c)+$')).toEqual([]);
    expect(shape('^(a+)?$')).toEqual([]);
  });

  it('requires maxLength ≤ 256 next to every pattern, at the maxLength path', () => {
    expect(rules(withField({ type: 'string', pattern: '^a$' }))).toEqual([['pattern-needs-maxlength', '/properties/f/maxLength']]);
    expect(rules(withField({ type: 'string', pattern: '^a$', maxLength: 257 }))).toEqual([['pattern-needs-maxlength', '/properties/f/maxLength']]);
    expect(rules(withField({ type: 'string', pattern: '^a$', maxLength: 2.5 }))).toEqual([['pattern-needs-maxlength', '/properties/f/maxLength']]);
    expect(rules(withField({ type: 'string', pattern: '^a$', maxLength: 256 }))).toEqual([]);
    // A pattern for property names needs its bound too.
    expect(rules({ type: 'object', propertyNames: { pattern: '^[a-z]+$' } })).toEqual([['pattern-needs-maxlength', '/propertyNames/maxLength']]);
  });

  it('refuses patternProperties wherever it stands as a keyword', () => {
    expect(rules({ type: 'object', patternProperties: { '^x': { type: 'string' } } })).toEqual([['pattern-properties', '/patternProperties']]);
    expect(rules({ type: 'object', properties: { a: { type: 'object', patternProperties: {} } } })).toEqual([['pattern-properties', '/properties/a/patternProperties']]);
  });

  it('finds patterns under every schema keyword (items, anyOf, $defs, if/then, dependentSchemas)', () => {
    const bad = { type: 'string', maxLength: 10, pattern: '(x+x+)+y' };
    const schema = { items: bad, anyOf: [{}, bad], $defs: { d: bad }, if: bad, then: bad, dependentSchemas: { k: bad }, prefixItems: [bad] };
    expect(rules(schema).map(([, path]) => path)).toEqual([
      '/items/pattern',
      '/anyOf/1/pattern',
      '/$defs/d/pattern',
      '/if/pattern',
      '/then/pattern',
      '/dependentSchemas/k/pattern',
      '/prefixItems/0/pattern',
    ]);
  });

  it('escapes JSON Pointer segments (~0, ~1) in paths', () => {
    expect(rules({ properties: { 'a/b~c': { type: 'string', pattern: 'x' } } })).toEqual([['pattern-needs-maxlength', '/properties/a~1b~0c/maxLength']]);
  });
});

describe('admitExternalSchema: shape of the document', () => {
  it.each([[null], ['string'], [[{ type: 'object' }]], [undefined]])('refuses %j as not-a-schema', (schema) => {
    expect(rules(schema)).toEqual([['not-a-schema', '']]);
  });

  it('refuses a cycle (not JSON) and a nesting deeper than 64', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(rules(cyclic)).toEqual([['not-a-schema', '']]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 70; i++) deep = { type: 'object', properties: { x: deep } };
    expect(rules(deep).map(([rule]) => rule)).toEqual(['too-deep']);
  });

  it('refuses a schema the dialect does not compile (schema-does-not-compile)', () => {
    expect(rules({ type: 'strng' })).toEqual([['schema-does-not-compile', '']]);
    expect(rules({ $schema: 'https://json-schema.org/draft/2020-12/schema', items: [{ type: 'string' }] })).toEqual([['schema-does-not-compile', '']]);
  });

  it('registers the copy that was checked: changing the caller\'s object afterwards changes nothing', () => {
    const original = { type: 'object', properties: { a: { type: 'string', maxLength: 5 } } };
    const r = admitExternalSchema(original);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    (original.properties.a as Record<string, unknown>).pattern = '(x+x+)+y';
    expect(JSON.stringify(r.schema)).not.toContain('pattern');
  });

  it('validates in the declared dialect: draft-07 items arrays and 2020-12 prefixItems both work', () => {
    const v = new SchemaValidator();
    const d7 = admitExternalSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }, { type: 'number' }] });
    const d2020 = admitExternalSchema({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] });
    expect(d7.ok && d2020.ok).toBe(true);
    if (!d7.ok || !d2020.ok) return;
    v.register('mcp.t.d7', d7.schema, d7.dialect);
    v.register('mcp.t.d2020', d2020.schema, d2020.dialect);
    for (const name of ['mcp.t.d7', 'mcp.t.d2020']) {
      expect(v.check(name, ['a', 1]).violations).toEqual([]);
      expect(v.check(name, [1, 'a']).violations.length).toBeGreaterThan(0);
    }
  });

  it('two tools with the same root $id do not collide in the validator', () => {
    const v = new SchemaValidator();
    for (const name of ['mcp.t.one', 'mcp.t.two']) {
      const r = admitExternalSchema({ $id: 'https://vendor.example/tool.json', type: 'object' });
      if (!r.ok) throw new Error('not admitted');
      v.register(name, r.schema, r.dialect);
    }
    expect(v.check('mcp.t.two', {}).violations).toEqual([]);
  });
});
