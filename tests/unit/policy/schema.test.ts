import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { policyJsonSchemaText } from '../../../electron/main/policy';

interface Node {
  type?: string;
  properties?: Record<string, Node>;
  additionalProperties?: boolean | Node;
  items?: Node;
}

/** Every object schema must close itself, or give a schema for its free keys (maps). */
function openObjects(node: Node, path: string, out: string[]): string[] {
  if (node.type === 'object') {
    const isMap = typeof node.additionalProperties === 'object' && node.properties === undefined;
    if (node.additionalProperties !== false && !isMap) out.push(path);
  }
  for (const [k, child] of Object.entries(node.properties ?? {})) openObjects(child, `${path}.${k}`, out);
  if (typeof node.additionalProperties === 'object') openObjects(node.additionalProperties, `${path}.*`, out);
  if (node.items) openObjects(node.items, `${path}[]`, out);
  return out;
}

describe('published policy schema', () => {
  it('resources/policy.schema.json is exactly what scripts/write-policy-schema.ts generates (run npm run policy:schema)', () => {
    const committed = readFileSync(new URL('../../../resources/policy.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(policyJsonSchemaText());
  });

  it('closes every object: additionalProperties false, or a value schema for maps', () => {
    const schema = JSON.parse(policyJsonSchemaText()) as Node;
    expect(openObjects(schema, '$', [])).toEqual([]);
    // The check itself bites: an object left open is reported.
    expect(openObjects({ type: 'object', properties: { a: { type: 'object', properties: {} } }, additionalProperties: false }, '$', [])).toEqual(['$.a']);
    expect((schema as { required?: string[] }).required).toEqual(['version']);
  });

  it('uses no patternProperties (X-SCHEMA refuses them in schemas we do not write; we hold ours to the same rule)', () => {
    expect(policyJsonSchemaText()).not.toContain('patternProperties');
  });
});
