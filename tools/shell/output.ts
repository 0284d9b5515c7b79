import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import type { TaskRead } from '../../electron/common/process-capability';
import { defineTool } from '../kit/define-tool';
import { fail } from '../kit/results';

const input = Type.Object(
  {
    taskId: Type.String({ description: 'The id shell.execute returned for a background task.' }),
    stop: Type.Optional(Type.Boolean({ description: 'Stop the task (and everything it started) after reading.' })),
  },
  { additionalProperties: false },
);

function stateLine(read: TaskRead, lang: 'ko' | 'en'): string {
  switch (read.state) {
    case 'running':
      return lang === 'ko' ? '[아직 실행 중: 나중에 다시 읽으세요]' : '[still running: read again later]';
    case 'exited':
      return read.exitCode === 0 ? (lang === 'ko' ? '[끝남]' : '[finished]') : read.exitCode === null ? `[killed by signal ${read.signal ?? 'unknown'}]` : `[exit code: ${read.exitCode}]`;
    case 'timed-out':
      return `[timed out after ${read.durationMs} ms]`;
    case 'stopped':
      return lang === 'ko' ? '[멈춤]' : '[stopped]';
  }
}

export const shellOutput = defineTool({
  name: 'shell.output',
  description: {
    ko: 'shell.execute로 백그라운드에서 시작한 작업의 새 출력을 읽거나(stop: true면) 멈춥니다.',
    en: 'Read the new output of a background task started with shell.execute, or stop it (stop: true).',
  },
  keywords: ['작업', '출력', '백그라운드', '진행', '중지', 'task', 'output', 'background', 'progress', 'stop'],
  input,
  // Reads what an already approved program printed; stopping only ends it early.
  risk: 'read',
  subject: null,
  concurrency: 'exclusive',
  capabilities: ['processes'],

  summarize: (args) => (args.stop ? text(`작업 ${args.taskId}를 멈춥니다`, `Stops task ${args.taskId}`) : text(`작업 ${args.taskId}의 출력을 읽습니다`, `Reads the output of task ${args.taskId}`)),

  async execute(args, ctx) {
    const read = args.stop ? await ctx.processes.stop(args.taskId) : ctx.processes.read(args.taskId);
    if (!read) {
      return fail(
        ctx.lang,
        text(`'${args.taskId}'라는 작업이 이 세션에 없습니다. shell.execute가 background: true로 돌려준 id를 쓰세요.`, `There is no task '${args.taskId}' in this session. Use the id shell.execute returned with background: true.`),
        undefined,
        'refused',
      );
    }
    const dropped = read.droppedBytes > 0 ? (ctx.lang === 'ko' ? `\n[읽지 않은 출력이 너무 많아 ${read.droppedBytes}바이트를 버림: 더 자주 읽으세요]` : `\n[${read.droppedBytes} bytes dropped: too much unread output; read more often]`) : '';
    return {
      outcome: 'ok',
      text: read.text,
      marker: `${stateLine(read, ctx.lang)}${dropped}`,
      details: { taskId: read.taskId, state: read.state, exitCode: read.exitCode, totalBytes: read.totalBytes, droppedBytes: read.droppedBytes, program: read.program.realPath },
    };
  },
});
