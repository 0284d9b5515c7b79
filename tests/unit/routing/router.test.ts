import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../../electron/main/gate/catalog';
import { rankTools, route, RoutingState } from '../../../electron/main/agent/routing/router';
import { catalogLine, estimateToolTokens, SEARCH_TOOL_NAME } from '../../../electron/main/agent/routing/tool-block';
import { withinOneEdit } from '../../../electron/main/agent/routing/fuzzy';
import { fixtureTools as tools } from './fixtures';

const top = (text: string) => rankTools(text, tools)[0]?.name;

describe('routing Korean and English requests', () => {
  it.each([
    ['다운로드 폴더의 파일 목록 보여줘', 'filesystem.list'],
    ['회의록 내용을 읽어줘', 'filesystem.read'],
    ['결과를 요약.txt로 저장해 주세요', 'filesystem.write'],
    ['엑셀 파일들을 연도별 폴더로 옮겨줘', 'filesystem.move'],
    ['임시 파일 지워줘', 'filesystem.delete'],
    ["'납품 지연'이라는 문구가 들어간 문서를 검색해줘", 'search.text'],
    ['디스크 남은 용량 확인해줘', 'system.info'],
    ['git status 실행해서 알려줘', 'shell.execute'],
    ['Rename draft.docx to final.docx', 'filesystem.move'],
    ['Search the logs for timeout', 'search.text'],
  ])('%s → %s', (request, tool) => {
    expect(top(request)).toBe(tool);
  });

  it('tolerates a one-jamo typo in Hangul and a one-letter typo in longer English words', () => {
    expect(top('임시 파일 삭재해줘')).toBe('filesystem.delete'); // 삭재 ← 삭제
    expect(top('파일 목룍 보여줘')).toBe('filesystem.list'); // 목룍 ← 목록
    expect(top('Serach the contents for invoice')).toBe('search.text'); // transposed letters
    expect(top('remvoe the old files')).toBe('filesystem.delete');
    expect(withinOneEdit('search', 'serach')).toBe(true);
    expect(withinOneEdit('search', 'sarch')).toBe(true);
    expect(withinOneEdit('search', 'seerch')).toBe(true);
    expect(withinOneEdit('search', 'saerhc')).toBe(false);
  });

  it('matches a keyword inside a Korean compound written without spaces', () => {
    expect(top('하위폴더파일목록 보여줘')).toBe('filesystem.list');
  });

  it('does not take the name of a folder for the tool ("다운로드 폴더" is a place)', () => {
    const ranked = rankTools('다운로드 폴더에 뭐가 있는지 목록 보여줘', toolCatalog());
    expect(ranked[0]!.name).toBe('filesystem.list');
  });

  it('a memo is a file, not memory: "메모" routes to reading files, "메모리" to system.info', () => {
    const real = toolCatalog();
    expect(route('메모 파일을 읽어줘', new RoutingState(), real).schemas).not.toContain('system.info');
    expect(route('메모리가 얼마나 남았어', new RoutingState(), real).schemas).toContain('system.info');
  });

  it("a document's extension names its reader; other extensions are part of a name", () => {
    const real = toolCatalog();
    expect(route('견적서.pdf 읽어줘', new RoutingState(), real).schemas).toContain('document.pdf.read');
    expect(route('회의록.hwp 열어서 요약해줘', new RoutingState(), real).schemas).toContain('document.hwp.read');
    expect(route('매출.xlsx 내용 읽어줘', new RoutingState(), real).schemas).toContain('excel.read');
    expect(route('보고서.docx 읽어줘', new RoutingState(), real).schemas).toContain('document.word.read');
    expect(route('메모.txt 읽어줘', new RoutingState(), real).schemas).toEqual(['filesystem.read']);
  });

  it('routes nothing for small talk', () => {
    const r = route('안녕하세요 반가워요', new RoutingState(), tools, { lang: 'ko' });
    expect(r.schemas).toEqual([]);
    expect(r.catalog).toHaveLength(tools.length);
  });
});

describe('route: the tool block', () => {
  it('sends the chosen schemas in a stable order, every other tool as one catalog line inside tool_search, last', () => {
    const r = route('임시 파일 지워줘', new RoutingState(), tools, { lang: 'ko' });
    expect(r.schemas).toContain('filesystem.delete');
    const sent = JSON.parse(r.toolBlock) as { type: string; function: { name: string; description: string; parameters: unknown } }[];
    expect(sent.map((d) => d.function.name)).toEqual([...r.schemas.map((n) => n.replace('.', '_')), 'tool_search']);
    expect(sent.every((d) => d.type === 'function' && /^[a-zA-Z0-9_-]{1,64}$/.test(d.function.name))).toBe(true);
    const search = sent.at(-1)!.function.description;
    for (const line of r.catalog) expect(search).toContain(line);
    expect(r.catalog).toHaveLength(tools.length - r.schemas.length);
    expect(r.catalog[0]).toMatch(/^filesystem_list — /);
    expect(r.toolBlock).toBe(JSON.stringify(r.definitions));
    expect(r.tokens.routed).toBe(estimateToolTokens(r.definitions));
    expect(r.tokens.routed).toBeLessThan(r.tokens.full);
    expect(SEARCH_TOOL_NAME).toBe('tool.search');
  });

  it('is deterministic: the same request and state give the same bytes', () => {
    const a = route('엑셀 파일들을 폴더로 옮겨줘', new RoutingState(), tools);
    const b = route('엑셀 파일들을 폴더로 옮겨줘', new RoutingState(), tools);
    expect(a.toolBlock).toBe(b.toolBlock);
  });

  it('keeps a catalog line short: Korean keywords, or the English first clause cut at a word', () => {
    expect(catalogLine(tools[3]!, 'ko')).toBe('filesystem_move — 옮기기, 이동');
    expect(catalogLine(tools[0]!, 'en')).toBe('filesystem_list — List the files of a folder');
    const real = toolCatalog();
    for (const t of real) {
      expect(catalogLine(t, 'en').length).toBeLessThan(60);
      expect(catalogLine(t, 'en')).not.toMatch(/ (of|or|a|the|to|with)$/);
    }
  });
});

describe('RoutingState: grow-only, stable order', () => {
  it('keeps the tool block byte-identical for later requests that need no new tool', () => {
    const state = new RoutingState();
    const first = route('회의록 내용을 읽고 요약을 저장해줘', state, tools);
    const again = route('응 그렇게 해줘', state, tools);
    const same = route('회의록 읽어줘', state, tools);
    expect(again.toolBlock).toBe(first.toolBlock);
    expect(same.toolBlock).toBe(first.toolBlock);
    expect(again.added).toEqual([]);
  });

  it('adds nothing when the same request is routed again (every step of one task routes its request)', () => {
    const real = toolCatalog();
    const state = new RoutingState();
    const task = "보고서 폴더에서 '예산'이 들어간 파일을 찾아 내용을 읽고, 요약을 요약.txt로 저장해줘";
    const first = route(task, state, real);
    for (let step = 0; step < 4; step++) {
      const again = route(task, state, real);
      expect(again.added).toEqual([]);
      expect(again.toolBlock).toBe(first.toolBlock);
    }
  });

  it('only grows: a later request adds its tools after those already offered, never drops or reorders', () => {
    const state = new RoutingState();
    const first = route('임시 파일 지워줘', state, tools);
    const second = route('회의록 읽어줘', state, tools);
    expect(second.schemas.slice(0, first.schemas.length)).toEqual(first.schemas);
    expect(second.schemas).toContain('filesystem.read');
    expect(second.added).toContain('filesystem.read');
    expect(state.offered).toEqual(second.schemas);
    const third = route('임시 파일 지워줘', state, tools);
    expect(third.schemas).toEqual(second.schemas);
  });

  it('admits one batch in registry order, and stops at maxOffered (later needs go through tool.search)', () => {
    const state = new RoutingState();
    const r = route('파일을 읽고 옮기고 지워줘', state, tools, { maxNew: 3, budgetShare: 1 });
    const order = tools.map((t) => t.name);
    expect([...r.schemas]).toEqual([...r.schemas].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    const capped = new RoutingState(['filesystem.list', 'filesystem.read']);
    const c = route('임시 파일 지워줘', capped, tools, { maxOffered: 2 });
    expect(c.schemas).toEqual(['filesystem.list', 'filesystem.read']);
  });

  it('resumes from persisted names and ignores a tool that is gone', () => {
    const state = new RoutingState(['filesystem.read', 'mcp.gone.tool', 'filesystem.read']);
    expect(state.offered).toEqual(['filesystem.read', 'mcp.gone.tool']);
    const r = route('', state, tools);
    expect(r.schemas).toEqual(['filesystem.read']);
  });
});

describe('the real catalog', () => {
  it('stays within a quarter of all full schemas for a one-tool request (estimate)', () => {
    const real = toolCatalog();
    const r = route('회의록.txt 파일 내용 좀 읽어줘', new RoutingState(), real, { lang: 'ko' });
    expect(r.schemas[0]).toBe('filesystem.read');
    expect(r.tokens.routed).toBeLessThanOrEqual(r.tokens.full * 0.25);
  });
});

describe('scoring details', () => {
  it('a keyword phrase whose every word is in the request beats a single shared word', () => {
    // "folder" alone is filesystem.list's keyword; "create folder" is mkdir's phrase
    const real = toolCatalog();
    expect(rankTools('create a folder named archive', real)[0]!.name).toBe('filesystem.mkdir');
    expect(rankTools('List the files in the Documents folder', real)[0]!.name).toBe('filesystem.list');
  });

  it('a name given after "named" is an argument, not a tool word; a .zip says which tool opens it', () => {
    const real = toolCatalog();
    const named = route('make a new folder called archive', new RoutingState(), real, { lang: 'en' }).schemas;
    expect(named).toContain('filesystem.mkdir');
    expect(named.filter((n) => n.startsWith('archive.'))).toEqual([]);
    expect(route('open invoices.zip', new RoutingState(), real, { lang: 'en' }).schemas).toContain('archive.unzip');
  });

  it('maps how people ask to the cards’ words: a phrase "들어간" is a content search', () => {
    const real = toolCatalog();
    expect(rankTools("'납품 지연'이라는 문구가 들어간 문서를 검색해줘", real)[0]!.name).toBe('search.text');
    expect(route('실수로 지운 파일 살려줘', new RoutingState(), real).schemas).toContain('filesystem.restore');
  });

  it('routes a pasted document by its first and last words, in bounded time', () => {
    // 2,000 distinct two-syllable words that name nothing
    const syllable = (n: number) => String.fromCharCode(0xac00 + (n % 11172));
    const filler = Array.from({ length: 2000 }, (_, i) => syllable(i * 37 + 5) + syllable(i * 91 + 3)).join(' ');
    const r = route(`회의록 내용 ${filler} 이걸 저장해줘`, new RoutingState(), tools);
    expect(r.schemas).toContain('filesystem.write');
  });

  it('the search tool still describes itself when every tool is offered', () => {
    const all = new RoutingState(tools.map((t) => t.name));
    const r = route('', all, tools, { lang: 'en', maxOffered: 99 });
    expect(r.catalog).toEqual([]);
    const search = r.definitions.at(-1)!.function.description;
    expect(search).toBe('Find tool definitions by tool name or keywords.');
  });
});

describe('the index cache', () => {
  it('reuses an index for an equal tool list in a new array, and rebuilds when a schema or card changes', () => {
    const copy = tools.map((t) => ({ ...t, schema: JSON.parse(JSON.stringify(t.schema)) as unknown }));
    const a = route('임시 파일 지워줘', new RoutingState(), tools);
    expect(route('임시 파일 지워줘', new RoutingState(), copy).toolBlock).toBe(a.toolBlock);
    const changed = tools.map((t) =>
      t.name === 'filesystem.delete' ? { ...t, schema: { type: 'object', properties: { path: { type: 'string', description: 'new' } } } } : t,
    );
    expect(route('임시 파일 지워줘', new RoutingState(), changed).toolBlock).toContain('"description":"new"');
    const renamed = tools.map((t) => (t.name === 'filesystem.delete' ? { ...t, keywords: [...t.keywords, '폐기'] } : t));
    expect(rankTools('오래된 파일 폐기', renamed)[0]!.name).toBe('filesystem.delete');
  });
});
