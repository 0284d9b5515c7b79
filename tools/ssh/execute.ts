import { Type } from '@sinclair/typebox';
import { text } from '../../electron/common/i18n';
import { clampTimeout, commandResult } from '../kit/command-output';
import { defineTool, failure } from '../kit/define-tool';
import { fail } from '../kit/results';

const input = Type.Object(
  {
    host: Type.String({ description: 'Server name as the policy lists it (e.g. "build01"), not an address.' }),
    command: Type.String({ description: 'One command line from that server\'s allowed list; no pipes or redirects.' }),
  },
  { additionalProperties: false },
);

export const sshExecute = defineTool({
  name: 'ssh.execute',
  description: {
    ko: '정책에 등록된 서버에서 허용된 명령 한 줄을 SSH로 실행하고 출력을 봅니다. 서버 키가 바뀌었으면 접속하지 않습니다.',
    en: "Run one allowed command line on a server listed in the policy over SSH and show its output. Refuses to connect if the server's key changed.",
  },
  keywords: ['서버', '원격', '점검', '접속', 'ssh', 'server', 'remote', 'uptime', 'df', 'check'],
  input,
  risk: 'execute',
  subject: { kind: 'HOST', fields: ['host'] },
  concurrency: 'parallel-safe',
  capabilities: ['ssh'],

  precheck(args, ctx) {
    const refused = ctx.ssh.check(args.host, args.command);
    return refused ? failure(refused.message) : null;
  },

  /** The approval shows the server (policy name and address); the ssh capability reaches only it. */
  async plan(args, ctx) {
    const refused = ctx.ssh.check(args.host, args.command);
    if (refused) return failure(refused.message);
    const address = ctx.ssh.endpoint(args.host) ?? args.host;
    return { targets: [], destination: `${args.host} (${address})`, network: { kind: 'ssh', host: args.host, address } };
  },

  summarize: (args) => text(`서버 ${args.host}에서 '${args.command}'을(를) 실행합니다`, `Runs '${args.command}' on server ${args.host}`),

  async execute(args, ctx) {
    const timeoutMs = clampTimeout(undefined, ctx.policy);
    const outcome = await ctx.ssh.execute({ host: args.host, command: args.command, timeoutMs, signal: ctx.signal });
    switch (outcome.kind) {
      case 'refused':
        return fail(ctx.lang, outcome.message, { reason: outcome.reason }, 'refused');
      case 'failed':
        return fail(ctx.lang, outcome.message, { reason: outcome.reason });
      default: {
        const details = { host: args.host, durationMs: outcome.durationMs, capturedBytes: outcome.capturedBytes, totalBytes: outcome.totalBytes, encoding: outcome.encoding };
        if (outcome.kind === 'exited') {
          return commandResult(outcome.text, { kind: 'exited', exitCode: outcome.exitCode, signal: outcome.exitSignal }, { ...details, exitCode: outcome.exitCode });
        }
        return commandResult(outcome.text, outcome.kind === 'timed-out' ? { kind: 'timed-out', timeoutMs: outcome.timeoutMs } : { kind: 'cancelled' }, details);
      }
    }
  },
});
