import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { builtinTools, toolCatalog } from '../../electron/main/gate';
import { RISKS, SUBJECT_KINDS } from '../../electron/common/domain';

/**
 * Rules over every registered tool (DESIGN idiom 2). A new tool that breaks one of them fails here
 * before a model ever sees it.
 */
const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Rough token estimates: ~4 characters per English token; Hangul is about one token per syllable. */
const MAX_EN_TOKENS = 60;
const MAX_KO_CHARS = 110;
/**
 * Every schema at once: what a request costs when routing offers everything (a tool_search over
 * many tools, or a model with the context to take them all). Routing sends a few of them per
 * request (tests/bench/tool-routing.bench.ts: at most 25% of this); the cap keeps the whole from
 * growing faster than the tools: about 160 estimated tokens per tool for the ~35 of SPEC §5.
 */
const MAX_CATALOG_TOKENS = 6000;

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: unknown;
  description?: string;
  anyOf?: SchemaNode[];
}

function objectsIn(node: SchemaNode, path = '$'): Array<{ path: string; node: SchemaNode }> {
  const out: Array<{ path: string; node: SchemaNode }> = [];
  if (node.type === 'object') out.push({ path, node });
  for (const [k, v] of Object.entries(node.properties ?? {})) out.push(...objectsIn(v, `${path}.${k}`));
  if (node.items) out.push(...objectsIn(node.items, `${path}[]`));
  for (const v of node.anyOf ?? []) out.push(...objectsIn(v, path));
  return out;
}

describe('tool registry rules', () => {
  const catalog = toolCatalog();

  it('has the tools built so far, in a stable order', () => {
    expect(catalog.map((t) => t.name)).toEqual([
      'filesystem.list',
      'filesystem.read',
      'filesystem.search',
      'filesystem.info',
      'filesystem.write',
      'filesystem.edit',
      'filesystem.mkdir',
      'filesystem.move',
      'filesystem.copy',
      'filesystem.delete',
      'filesystem.restore',
      'filesystem.trash',
      'search.text',
      'excel.sheets',
      'excel.read',
      'excel.write',
      'document.pdf.read',
      'document.word.read',
      'document.word.write',
      'document.hwp.read',
      'archive.zip',
      'archive.unzip',
      'system.info',
      'http.request',
      'browser.open',
      'browser.screenshot',
      'ssh.execute',
      'ssh.download',
      'shell.execute',
      'shell.output',
      'git.status',
      'git.log',
      'git.diff',
      'git.show',
      'git.blame',
      'code.outline',
      'code.stats',
    ]);
  });

  it.each(catalog.map((t) => [t.name, t] as const))('%s follows the contract', (name, tool) => {
    expect(name).toMatch(/^[a-z][a-z0-9]*(\.[a-z][a-zA-Z0-9]*){1,2}$/);
    expect(name.replace(/\./g, '_')).toMatch(WIRE_NAME);
    expect(RISKS).toContain(tool.risk);
    if (tool.subjectKind !== null) expect(SUBJECT_KINDS).toContain(tool.subjectKind);
    expect(tool.description.ko.trim()).not.toBe('');
    expect(tool.description.en.trim()).not.toBe('');
    expect(tool.description.ko).toMatch(/[가-힣]/);
    expect(Math.ceil(tool.description.en.length / 4)).toBeLessThanOrEqual(MAX_EN_TOKENS);
    expect(tool.description.ko.length).toBeLessThanOrEqual(MAX_KO_CHARS);
    expect(tool.keywords.some((k) => /[가-힣]/.test(k))).toBe(true);
    expect(tool.keywords.some((k) => /^[a-z]/i.test(k))).toBe(true);
    // Compiles under ajv strict mode (unknown keywords, bad types would throw).
    expect(() => new Ajv({ strict: true, strictRequired: false }).compile(tool.schema as object)).not.toThrow();
    for (const { path, node } of objectsIn(tool.schema as SchemaNode)) {
      expect({ path, additionalProperties: node.additionalProperties }).toEqual({ path, additionalProperties: false });
    }
    for (const [param, node] of Object.entries((tool.schema as SchemaNode).properties ?? {})) {
      expect({ param, described: Boolean(node.description?.trim()) }).toEqual({ param, described: true });
    }
  });

  it('the catalog a model receives every request stays within its token budget', () => {
    const wire = catalog.map((t) => ({ name: t.name.replace('.', '_'), description: t.description.en, parameters: t.schema }));
    expect(Math.ceil(JSON.stringify(wire).length / 4)).toBeLessThanOrEqual(MAX_CATALOG_TOKENS);
  });

  it('every tool object is frozen and unique by name', () => {
    expect(new Set(builtinTools.map((t) => t.name)).size).toBe(builtinTools.length);
    for (const t of builtinTools) expect(Object.isFrozen(t)).toBe(true);
  });
});
