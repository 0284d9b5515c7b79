import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../../electron/main/gate/catalog';
import { fromWireName, toWireName } from '../../../electron/main/agent/routing/wire-names';
import { outputBudgetFor } from '../../../electron/main/agent/routing/budget';
import { answerToolSearch } from '../../../electron/main/agent/routing/search-tool';
import { routeCommandOutput } from '../../../electron/main/agent/routing/route-command';
import { estimateTokens } from '../../../electron/main/agent/routing/tool-block';
import { fixtureTools as tools } from './fixtures';

describe('wire names', () => {
  it('round-trips every real tool name and the search tool', () => {
    const names = [...toolCatalog().map((t) => t.name), 'tool.search', 'mcp.files.read_file'];
    for (const n of names) {
      const wire = toWireName(n);
      expect(wire).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(fromWireName(wire, names)).toBe(n);
      expect(fromWireName(n, names)).toBe(n); // a model that echoes the dotted name
    }
    expect(toWireName('filesystem.read')).toBe('filesystem_read');
  });

  it('never guesses: an unknown name comes back unchanged (the gate denies it with the closest names)', () => {
    expect(fromWireName('filesystem_reed', ['filesystem.read'])).toBe('filesystem_reed');
    expect(fromWireName('filesystem_read', [])).toBe('filesystem_read');
    // whatever the name, the wire form is sendable
    for (const n of ['mcp.서버.도구', `x.${'a'.repeat(70)}`, `x.${'a'.repeat(70)}b`]) expect(toWireName(n)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(toWireName(`x.${'a'.repeat(70)}`)).not.toBe(toWireName(`x.${'a'.repeat(70)}b`));
  });
});

describe('outputBudgetFor', () => {
  it('follows the context: a fifth of it at 1.3 characters per token, between 1,000 and 30,000', () => {
    expect(outputBudgetFor(8192)).toBe(2129);
    expect(outputBudgetFor(4096)).toBe(1064);
    expect(outputBudgetFor(32768)).toBe(8519);
    expect(outputBudgetFor(131072)).toBe(30_000);
    expect(outputBudgetFor(2048)).toBe(1000);
    expect(outputBudgetFor(0)).toBe(1000);
    expect(outputBudgetFor(Number.NaN)).toBe(1000);
    expect(outputBudgetFor(8192)).toBeLessThan(30_000);
  });

  it('grows with the context and never shrinks', () => {
    let last = 0;
    for (let ctx = 512; ctx <= 262_144; ctx *= 2) {
      const b = outputBudgetFor(ctx);
      expect(b).toBeGreaterThanOrEqual(last);
      last = b;
    }
  });
});

describe('tool.search', () => {
  it('returns the definitions of tools named by wire or dotted name, in registry order', () => {
    const a = answerToolSearch({ query: 'search_text, filesystem.write' }, tools, 'en');
    expect(a.names).toEqual(['filesystem.write', 'search.text']);
    const lines = a.text.split('\n');
    expect(lines[0]).toMatch(/call them by these names/);
    expect(JSON.parse(lines[1]!).function.name).toBe('filesystem_write');
    expect(JSON.parse(lines[2]!).function.parameters).toEqual(tools[5]!.schema);
  });

  it('answers keywords with the best few tools, in Korean or English', () => {
    expect(answerToolSearch({ query: '휴지통 삭제' }, tools, 'ko').names).toEqual(['filesystem.delete']);
    expect(answerToolSearch({ query: 'free disk space' }, tools, 'en').names[0]).toBe('system.info');
    expect(answerToolSearch({ query: '파일 옮기기' }, tools, 'ko').names.length).toBeLessThanOrEqual(3);
  });

  it('says what to do when nothing matches or the query is missing', () => {
    const none = answerToolSearch({ query: '날씨' }, tools, 'ko');
    expect(none.names).toEqual([]);
    expect(none.text).toMatch(/맞는 도구가 없습니다/);
    expect(none.text).toContain('filesystem_list');
    expect(answerToolSearch({}, tools, 'en').text).toMatch(/query/);
    expect(answerToolSearch(null, tools, 'en').names).toEqual([]);
  });
});

describe('routeCommandOutput (baram route)', () => {
  it('--json prints one object with the schemas in order and both token counts', () => {
    const out = routeCommandOutput('임시 파일 지워줘', tools, 'ko', true);
    const o = JSON.parse(out) as { schemas: string[]; tokens: { routed: number; full: number; counted: string } };
    expect(o.schemas[0]).toBe('filesystem.delete');
    expect(o.tokens.routed).toBeGreaterThan(0);
    expect(o.tokens.full).toBeGreaterThan(o.tokens.routed);
    expect(o.tokens.counted).toBe('estimate');
  });

  it('prints the tools offered and the token cost, in the session language; a counter replaces the estimate', () => {
    const ko = routeCommandOutput('임시 파일 지워줘', tools, 'ko', false);
    expect(ko).toMatch(/1\. filesystem\.delete {2}\(filesystem_delete\)/);
    expect(ko).toMatch(/도구 블록 토큰 \(추정\): 라우팅 \d+ \/ 전체 \d+/);
    const en = routeCommandOutput('Delete the temp files', tools, 'en', false, (defs) => defs.length * 100);
    expect(en).toMatch(/Tool block tokens \(tokenizer\): routed \d+ \/ full 800/);
  });
});

describe('estimateTokens', () => {
  it('counts Hangul about a token a syllable and ASCII about 3.6 characters a token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a'.repeat(360))).toBe(100);
    expect(estimateTokens('가'.repeat(100))).toBe(92);
  });
});
