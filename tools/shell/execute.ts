import { Type } from '@sinclair/typebox';
import { isFileAccessError } from '../../electron/common/file-access';
import { text, type Text } from '../../electron/common/i18n';
import type { ResolvedProgram, RunOutcome } from '../../electron/common/process-capability';
import { clampTimeout, commandResult } from '../kit/command-output';
import { defineTool, failure, type Failure, type PrecheckContext } from '../kit/define-tool';
import { fileErrorText } from '../kit/file-errors';
import { fail } from '../kit/results';

const input = Type.Object(
  {
    command: Type.String({ description: 'Program name from the allowed list, e.g. "git" — never a path, no arguments here.' }),
    args: Type.Optional(Type.Array(Type.String(), { description: 'Arguments, one per item; passed as they are (there is no shell: no pipes, globs or redirects).' })),
    cwd: Type.Optional(Type.String({ description: 'Working folder inside the workspace; default the workspace.' })),
    timeoutMs: Type.Optional(Type.Integer({ description: 'Default 120000; 1000 to the policy maximum.' })),
    background: Type.Optional(Type.Boolean({ description: 'Run in the background and return a task id for shell.output.' })),
  },
  { additionalProperties: false },
);

type Input = { command: string; args?: string[]; cwd?: string; timeoutMs?: number; background?: boolean };

/**
 * What precheck, plan and execute all check: the program, the working folder, then the arguments
 * with both (the program's grammar, its path arguments held to the workspace, git's repository:
 * docs/2026-12-03-programs-confined-by-grammar.md). The process capability judges them; it judges
 * them again when it runs, so this check is the early one, not the only one.
 */
async function checkCall(args: Input, ctx: PrecheckContext): Promise<{ program: ResolvedProgram; cwd: string } | Failure> {
  const found = await ctx.processes.resolve(args.command);
  if (found.kind === 'refused') return failure(found.message);
  let cwd: string;
  try {
    cwd = await ctx.files.check(args.cwd === undefined || args.cwd.trim() === '' ? '.' : args.cwd);
    const info = await ctx.files.stat(cwd);
    if (info?.type !== 'directory') return failure(notAFolder(args.cwd ?? '.'));
  } catch (e) {
    if (isFileAccessError(e)) return failure(fileErrorText(e));
    throw e;
  }
  const program = await ctx.processes.resolve(args.command, { args: args.args ?? [], cwd });
  if (program.kind === 'refused') return failure(program.message);
  return { program, cwd };
}

function notAFolder(cwd: string): Text {
  return text(`작업 폴더 '${cwd}'가 없거나 폴더가 아닙니다. 작업 공간 안의 폴더를 주세요(생략하면 작업 공간).`, `The working folder '${cwd}' does not exist or is not a folder. Give a folder inside the workspace (omit it for the workspace).`);
}

function commandLine(args: Input): string {
  return [args.command, ...(args.args ?? []).map((a) => (/[\s'"]/.test(a) || a === '' ? JSON.stringify(a) : a))].join(' ');
}

function details(program: ResolvedProgram, extra: Record<string, unknown>): Record<string, unknown> {
  return { program: program.realPath, sha256: program.sha256, ...extra };
}

function rendered(outcome: Exclude<RunOutcome, { kind: 'failed-to-start' }>) {
  const base = details(outcome.program, { durationMs: outcome.durationMs, capturedBytes: outcome.output.capturedBytes, totalBytes: outcome.output.totalBytes, truncatedCapture: outcome.output.truncated, encoding: outcome.output.encoding });
  switch (outcome.kind) {
    case 'exited':
      return commandResult(outcome.output.text, { kind: 'exited', exitCode: outcome.exitCode, signal: outcome.signal }, { ...base, exitCode: outcome.exitCode });
    case 'timed-out':
      return commandResult(outcome.output.text, { kind: 'timed-out', timeoutMs: outcome.timeoutMs }, base);
    case 'cancelled':
      return commandResult(outcome.output.text, { kind: 'cancelled' }, base);
  }
}

export const shellExecute = defineTool({
  name: 'shell.execute',
  description: {
    ko: '허용된 프로그램(예: git)을 셸 없이 실행하고 출력을 봅니다. 파이프·리디렉션·와일드카드는 없습니다. 오래 걸리면 background로 실행하고 shell.output으로 읽으세요.',
    en: 'Run an allowed program (e.g. git) without a shell and show its output. No pipes, redirects or globs. For long runs use background and read with shell.output.',
  },
  keywords: ['명령', '실행', '프로그램', '터미널', 'git', 'command', 'run', 'execute', 'program', 'terminal', 'cli'],
  input,
  risk: 'execute',
  subject: { kind: 'COMMAND', fields: ['command', 'args'] },
  concurrency: 'exclusive',
  capabilities: ['processes', 'files'],

  async precheck(args, ctx) {
    const checked = await checkCall(args, ctx);
    return 'failure' in checked ? checked : null;
  },

  async plan(args, ctx) {
    const checked = await checkCall(args, ctx);
    if ('failure' in checked) return checked;
    // The approval names the exact file that will run; execution refuses any other (expected).
    return {
      targets: [],
      program: { command: checked.program.command, path: checked.program.path, realPath: checked.program.realPath, sha256: checked.program.sha256 },
      preview: `${commandLine(args)}\n${checked.program.realPath}  SHA-256 ${checked.program.sha256}\ncwd: ${ctx.files.display(checked.cwd) || '.'}`,
    };
  },

  summarize: (args) => text(`'${commandLine(args)}'을(를) 실행합니다`, `Runs '${commandLine(args)}'`),

  async execute(args, ctx) {
    const checked = await checkCall(args, ctx);
    if ('failure' in checked) return fail(ctx.lang, checked.failure, undefined, 'refused');
    // The process capability runs only the planned program file (the gate binds it to the approval).
    const request = {
      command: args.command,
      args: args.args ?? [],
      cwd: checked.cwd,
      timeoutMs: clampTimeout(args.timeoutMs, ctx.policy),
    };
    if (args.background) {
      const started = await ctx.processes.start(request);
      if (started.kind === 'refused') return fail(ctx.lang, started.message, undefined, 'refused');
      if (started.kind === 'failed-to-start') return fail(ctx.lang, commandFailed(started.message), details(started.program, { code: started.code }));
      return {
        outcome: 'ok',
        text: ctx.lang === 'ko'
          ? `백그라운드 작업을 시작했습니다: ${started.taskId}. shell.output {"taskId":"${started.taskId}"}로 출력을 읽고, "stop": true로 멈추세요. ${started.timeoutMs} ms가 지나면 멈춥니다.`
          : `Started background task ${started.taskId}. Read its output with shell.output {"taskId":"${started.taskId}"}; stop it with "stop": true. It is stopped after ${started.timeoutMs} ms.`,
        details: details(started.program, { taskId: started.taskId, timeoutMs: started.timeoutMs }),
      };
    }
    const outcome = await ctx.processes.run({ ...request, signal: ctx.signal });
    if (outcome.kind === 'refused') return fail(ctx.lang, outcome.message, undefined, 'refused');
    if (outcome.kind === 'failed-to-start') return fail(ctx.lang, commandFailed(outcome.message), details(outcome.program, { code: outcome.code }));
    return rendered(outcome);
  },
});

/** SPEC S-SHELL: "Command failed: " appears only when the program could not be started at all. */
function commandFailed(message: Text): Text {
  return { ko: `Command failed: ${message.ko}`, en: `Command failed: ${message.en}` };
}
