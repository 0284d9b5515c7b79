import { Type } from '@sinclair/typebox';
import { defineTool, failure } from '../../../tools/kit/define-tool';
import { ok } from '../../../tools/kit/results';
import { text } from '../../../electron/common/i18n';

/** Purpose-made tools that expose what the gate hands them. */
export const seen: { inputs: Record<string, unknown>[]; runs: number } = { inputs: [], runs: 0 };

export function resetSeen(): void {
  seen.inputs.length = 0;
  seen.runs = 0;
}

export const probeRead = defineTool({
  name: 'probe.read',
  description: text('시험용 읽기 도구', 'Test read tool'),
  keywords: ['probe'],
  input: Type.Object(
    {
      file_path: Type.String({ description: 'file' }),
      count: Type.Optional(Type.Integer({ description: 'how many' })),
      mode: Type.Optional(Type.Union([Type.Literal('fast'), Type.Literal('slow')], { description: 'mode' })),
      kind: Type.Optional(Type.String({ enum: ['a', 'b'], description: 'kind' })),
    },
    { additionalProperties: false },
  ),
  risk: 'read',
  subject: { kind: 'PATH', fields: ['file_path'] },
  concurrency: 'parallel-safe',
  capabilities: ['files'],
  summarize: (input) => text(`${input.file_path} 읽기`, `Read ${input.file_path}`),
  async execute(input) {
    seen.runs++;
    seen.inputs.push({ ...input });
    return ok(`read ${input.file_path}`);
  },
});

export const probeWrite = defineTool({
  name: 'probe.write',
  description: text('시험용 쓰기 도구', 'Test write tool'),
  keywords: ['probe'],
  input: Type.Object({ file_path: Type.String({ description: 'file' }), big: Type.Optional(Type.Boolean({ description: 'long output' })) }, { additionalProperties: false }),
  risk: 'write',
  subject: { kind: 'PATH', fields: ['file_path'] },
  concurrency: 'exclusive',
  capabilities: ['files'],
  summarize: (input) => text(`${input.file_path}에 씁니다`, `Writes ${input.file_path}`),
  async execute(input, ctx) {
    seen.runs++;
    seen.inputs.push({ ...input });
    if (ctx.signal.aborted) return { outcome: 'cancelled', text: 'stopped' };
    return ok(input.big ? 'x'.repeat(50_000) : `wrote ${input.file_path}`);
  },
});

export const probeCrash = defineTool({
  name: 'probe.crash',
  description: text('시험용: 항상 예외', 'Test: always throws'),
  keywords: ['probe'],
  input: Type.Object({}, { additionalProperties: false }),
  risk: 'read',
  subject: null,
  concurrency: 'parallel-safe',
  capabilities: ['files'],
  summarize: () => text('충돌', 'Crash'),
  async execute() {
    seen.runs++;
    throw new Error('boom: internal detail that must not reach the model');
  },
});

export const probePrecheck = defineTool({
  name: 'probe.precheck',
  description: text('시험용: 사전 검사', 'Test: precheck'),
  keywords: ['probe'],
  input: Type.Object({ behaviour: Type.String({ enum: ['refuse', 'throw', 'pass'], description: 'what precheck does' }) }, { additionalProperties: false }),
  risk: 'write',
  subject: null,
  concurrency: 'exclusive',
  capabilities: ['files'],
  precheck(input) {
    if (input.behaviour === 'throw') throw new Error('precheck is broken');
    if (input.behaviour === 'refuse') return failure(text('명령이 허용 목록에 없습니다. filesystem.list를 쓰세요.', 'Not whitelisted. Use filesystem.list instead.'));
    return null;
  },
  summarize: () => text('사전 검사 시험', 'Precheck test'),
  async execute() {
    seen.runs++;
    return ok('ran');
  },
});

export const testTools = [probeRead, probeWrite, probeCrash, probePrecheck];
