import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { fromWireName, synthesizeCallId, toWireName, turnSeed, WIRE_NAME } from '../../../electron/main/model/backend';
import { buildActionSchema, parseAction, toGrammarSchema } from '../../../electron/main/model/action-schema';
import { lines, sseEvents } from '../../../electron/main/model/stream';
import { parseTextCalls, TextCallFilter } from '../../../electron/main/model/text-calls';
import { normaliseFinish } from '../../../electron/main/model/openai';
import { splitThink, ThinkSplitter } from '../../../electron/main/model/think';
import { builtinTools } from '../../../tools/registry';

async function* bytes(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}
const everyByte = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => Uint8Array.of(b));

describe('wire names', () => {
  it('every built-in tool maps to a wire-safe name and back', () => {
    const names = builtinTools.map((t) => t.name);
    for (const name of names) {
      const wire = toWireName(name);
      expect(wire).toMatch(WIRE_NAME);
      expect(fromWireName(wire, names)).toBe(name);
      expect(fromWireName(name, names)).toBe(name);
    }
    expect(new Set(names.map(toWireName)).size).toBe(names.length);
  });

  it('long and odd names stay within the rule without colliding; unknown names come back unchanged', () => {
    const a = `mcp.${'x'.repeat(80)}.a`;
    const b = `mcp.${'x'.repeat(80)}.b`;
    expect(toWireName(a)).toMatch(WIRE_NAME);
    expect(toWireName(a)).not.toBe(toWireName(b));
    expect(toWireName('mcp.사내 위키.검색')).toMatch(WIRE_NAME);
    expect(fromWireName('Bingo', ['filesystem.read'])).toBe('Bingo');
  });

  it('synthesized ids are stable per seed and position', () => {
    expect(synthesizeCallId('t1', 0)).toBe(synthesizeCallId('t1', 0));
    expect(synthesizeCallId('t1', 0)).not.toBe(synthesizeCallId('t1', 1));
  });

  it('a later turn of a conversation (even resumed in a new process) seeds other ids', () => {
    const first = [{ role: 'user' as const, content: '정리해줘' }];
    const later = [...first, { role: 'assistant' as const, content: '', toolCalls: [{ id: synthesizeCallId(turnSeed(first), 0), name: 'filesystem.list', arguments: { path: '.' } }] }, { role: 'tool' as const, toolCallId: 'x', toolName: 'filesystem.list', content: 'a.txt' }];
    expect(turnSeed(first)).toBe(turnSeed([...first]));
    expect(synthesizeCallId(turnSeed(later), 0)).not.toBe(synthesizeCallId(turnSeed(first), 0));
  });
});

describe('byte stream decoding', () => {
  it('lines split at every byte keep Korean intact and handle CRLF and a lone CR', async () => {
    const src = '첫째 줄\r\n둘째 줄\r셋째 줄\n\n마지막';
    const out: string[] = [];
    for await (const l of lines(bytes(everyByte(src)))) out.push(l);
    expect(out).toEqual(['첫째 줄', '둘째 줄', '셋째 줄', '', '마지막']);
  });

  it('SSE: comments skipped, multi-line data joined, the old error field, a last event without a blank line', async () => {
    const src = ': ping\n\ndata: {"a":\ndata: 1}\n\nerror: {"message":"boom"}\n\nevent: error\ndata: {"x":2}\n\ndata: tail';
    const out = [];
    for await (const e of sseEvents(bytes(everyByte(src)))) out.push(e);
    expect(out).toEqual([
      { kind: 'data', data: '{"a":\n1}' },
      { kind: 'error', data: '{"message":"boom"}' },
      { kind: 'data', data: '{"x":2}', event: 'error' },
      { kind: 'data', data: 'tail' },
    ]);
  });

  it.each([
    ['stop', 'stop'],
    ['eos', 'stop'],
    [null, 'stop'],
    ['tool_calls', 'tool_calls'],
    ['tool', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['length', 'length'],
    ['max_tokens', 'length'],
    ['content_filter', 'error'],
  ])('finish_reason %s → %s', (raw, expected) => {
    expect(normaliseFinish(raw)).toBe(expected);
  });
});

describe('text conventions', () => {
  const known = ['filesystem.read', 'shell.execute'];

  it('no call form → null, even with JSON inside prose', () => {
    expect(parseTextCalls('결과: {"name": "x", "arguments": {}} 입니다', known, 's')).toBeNull();
    expect(parseTextCalls('그냥 답변입니다.', known, 's')).toBeNull();
  });

  it('an unterminated last <tool_call> block is still read (vLLM hermes regex)', () => {
    const r = parseTextCalls('<tool_call>\n{"name": "shell_execute", "arguments": {"command": "ls"}}', known, 's')!;
    expect(r.calls).toMatchObject([{ name: 'shell.execute', arguments: { command: 'ls' } }]);
  });

  it('generic llama.cpp forms {"tool_call":…} and {"tool_calls":[…]}', () => {
    expect(parseTextCalls('{"tool_call": {"name": "filesystem_read", "arguments": {"path": "a"}}}', known, 's')!.calls).toMatchObject([{ name: 'filesystem.read' }]);
    const many = parseTextCalls('{"tool_calls": [{"name": "filesystem_read", "arguments": {"path": "a"}}, {"name": "shell_execute", "arguments": {"command": "ls"}}]}', known, 's')!;
    expect(many.calls.map((c) => c.name)).toEqual(['filesystem.read', 'shell.execute']);
    expect(new Set(many.calls.map((c) => c.id)).size).toBe(2);
  });

  it('arguments given as a non-object are a malformed call', () => {
    const r = parseTextCalls('<tool_call>{"name": "filesystem_read", "arguments": [1, 2]}</tool_call>', known, 's')!;
    expect(r.calls).toEqual([]);
    expect(r.malformed[0]!.error.en).toContain('not executed');
  });

  it('a number that parses to Infinity (1E709) is a malformed call, not a null in disguise', () => {
    const r = parseTextCalls('{"name": "filesystem_read", "arguments": {"path": "a", "limit": 2832E709}}', known, 's')!;
    expect(r.calls).toEqual([]);
    expect(r.malformed[0]!.error.en).toContain('out of range');
  });

  it('the streaming filter never shows call markup, even when the marker is split across deltas', () => {
    const f = new TextCallFilter(known, 's');
    const content = '확인하겠습니다. <tool_call>{"name": "filesystem_read", "arguments": {"path": "a"}}</tool_call>';
    let shown = '';
    for (const ch of content) shown += f.push(ch);
    const end = f.end();
    shown += end.text;
    expect(shown).toBe('확인하겠습니다. ');
    expect(end.calls).toHaveLength(1);
  });

  it('the filter flushes held text that turned out not to be a call', () => {
    const f = new TextCallFilter(known, 's');
    let shown = f.push('{"합계": 3}');
    shown += f.push(' 끝');
    expect(shown).toBe('');
    expect(f.end().text).toBe('{"합계": 3} 끝');
    const g = new TextCallFilter(known, 's');
    expect(g.push('a <tool') + g.push('box> b') + g.end().text).toBe('a <toolbox> b');
  });
});

describe('action schema and grammar conversion', () => {
  const tools = builtinTools.slice(0, 4).map((t) => ({ name: t.name, description: t.description.en, parameters: JSON.parse(JSON.stringify(t.input)) as object }));

  it('accepts exactly one call of an offered tool, or an answer', () => {
    const validate = new Ajv({ strict: false }).compile(buildActionSchema(tools));
    expect(validate({ name: 'filesystem_read', arguments: { path: 'a.txt' } })).toBe(true);
    expect(validate({ answer: '안녕하세요' })).toBe(true);
    expect(validate({ name: 'filesystem_read', arguments: { path: 'a.txt', extra: 1 } })).toBe(false);
    expect(validate({ name: 'Bingo', arguments: {} })).toBe(false);
    expect(validate({ name: 'filesystem_read', arguments: { path: 'a' }, answer: 'x' })).toBe(false);
    const required = new Ajv({ strict: false }).compile(buildActionSchema(tools, true));
    expect(required({ answer: 'x' })).toBe(false);
  });

  it('parseAction maps the wire name back and reads answers', () => {
    expect(parseAction('{"name":"filesystem_list","arguments":{"path":"."}}', tools)).toEqual({ kind: 'call', name: 'filesystem.list', arguments: { path: '.' } });
    expect(parseAction('{"answer":"끝"}', tools)).toEqual({ kind: 'answer', text: '끝' });
    expect(parseAction('{"name":"filesystem_list","arguments":"{bad"}', tools)).toMatchObject({ kind: 'invalid', name: 'filesystem.list' });
    expect(parseAction('not json', tools)).toMatchObject({ kind: 'invalid', name: null });
  });

  it('toGrammarSchema: optional → oneOf null, anyOf → oneOf, no pattern/ranges/required, additionalProperties kept false', () => {
    const g = toGrammarSchema(
      {
        type: 'object',
        properties: {
          path: { type: 'string', pattern: '^[a-z]+$' },
          limit: { type: 'integer', minimum: 1, maximum: 500 },
          mode: { anyOf: [{ const: 'a' }, { const: 'b' }] },
        },
        required: ['path'],
        additionalProperties: false,
      },
      { defaultMaxLength: 40 },
    ) as any;
    expect(g).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', maxLength: 40 },
        limit: { oneOf: [{ type: 'null' }, { type: 'integer' }] },
        mode: { oneOf: [{ type: 'null' }, { oneOf: [{ const: 'a' }, { const: 'b' }] }] },
      },
      additionalProperties: false,
    });
  });
});

describe('think blocks in the content', () => {
  it('split at every character gives the same as whole', () => {
    const content = '  <think>추론 <b>중</b></think>\n\n답: 42';
    const s = new ThinkSplitter();
    let r = '';
    let t = '';
    for (const ch of content) {
      const p = s.push(ch);
      r += p.reasoning;
      t += p.text;
    }
    const e = s.end();
    expect({ reasoning: r + e.reasoning, text: t + e.text }).toEqual({ reasoning: '추론 <b>중</b>', text: '답: 42' });
    expect(splitThink(content)).toEqual({ reasoning: '추론 <b>중</b>', text: '답: 42' });
  });

  it('text that only looks like it at first is text; an unclosed block is reasoning', () => {
    expect(splitThink('<thin client>')).toEqual({ reasoning: '', text: '<thin client>' });
    expect(splitThink('답 <think>x</think>')).toEqual({ reasoning: '', text: '답 <think>x</think>' });
    expect(splitThink('<think>끝나지 않음')).toEqual({ reasoning: '끝나지 않음', text: '' });
  });
});
