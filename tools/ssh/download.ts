import { Type } from '@sinclair/typebox';
import { isFileAccessError } from '../../electron/common/file-access';
import { text } from '../../electron/common/i18n';
import { clampTimeout } from '../kit/command-output';
import { defineTool, failure, type Failure, type PrecheckContext } from '../kit/define-tool';
import { fileErrorText } from '../kit/file-errors';
import { fail, ok } from '../kit/results';
import { humanSize } from '../kit/sizes';

const input = Type.Object(
  {
    host: Type.String({ description: 'Server name as the policy lists it (e.g. "build01").' }),
    remotePath: Type.String({ description: 'File on the server, e.g. "/var/log/app/today.log".' }),
    path: Type.String({ description: 'Where to save it, inside the workspace.' }),
    overwrite: Type.Optional(Type.Boolean({ description: 'Replace an existing file (default false).' })),
  },
  { additionalProperties: false },
);

type Input = { host: string; remotePath: string; path: string; overwrite?: boolean };

/** The host exists and the destination is a confined path that may be written; returns its absolute form. */
async function checkCall(args: Input, ctx: PrecheckContext): Promise<{ local: string; exists: boolean } | Failure> {
  const refused = ctx.ssh.check(args.host);
  if (refused) return failure(refused.message);
  try {
    const local = await ctx.files.check(args.path);
    const existing = await ctx.files.stat(local);
    if (existing && existing.type !== 'file') {
      return failure(text(`'${args.path}'는 파일이 아닙니다. 저장할 파일 이름을 주세요.`, `'${args.path}' is not a file. Give a file name to save to.`));
    }
    if (existing && !args.overwrite) {
      return failure(text(`'${args.path}' 파일이 이미 있습니다. 다른 이름을 주거나 overwrite: true로 바꾸세요.`, `'${args.path}' already exists. Choose another name or pass overwrite: true.`));
    }
    return { local, exists: existing !== null };
  } catch (e) {
    if (isFileAccessError(e)) return failure(fileErrorText(e));
    throw e;
  }
}

export const sshDownload = defineTool({
  name: 'ssh.download',
  description: {
    ko: '정책에 등록된 서버의 파일 하나를 SFTP로 작업 공간에 내려받습니다(크기 제한 있음).',
    en: 'Download one file from a server listed in the policy into the workspace over SFTP (size-capped).',
  },
  keywords: ['서버', '파일 받기', '다운로드', '로그', 'sftp', 'scp', 'download', 'server', 'log', 'fetch file'],
  input,
  risk: 'network',
  subject: { kind: 'HOST', fields: ['host'] },
  concurrency: 'exclusive',
  capabilities: ['ssh', 'files'],

  async precheck(args, ctx) {
    const checked = await checkCall(args, ctx);
    return 'failure' in checked ? checked : null;
  },

  async plan(args, ctx) {
    const checked = await checkCall(args, ctx);
    if ('failure' in checked) return checked;
    const address = ctx.ssh.endpoint(args.host) ?? args.host;
    return {
      targets: [{ path: checked.local, fingerprint: await ctx.files.fingerprint(checked.local) }],
      destination: `${args.host} (${address}):${args.remotePath}`,
      network: { kind: 'ssh', host: args.host, address },
    };
  },

  summarize: (args) => text(`서버 ${args.host}의 '${args.remotePath}'를 '${args.path}'로 내려받습니다`, `Downloads '${args.remotePath}' from server ${args.host} to '${args.path}'`),

  async execute(args, ctx) {
    // Exactly the planned local file (the ssh capability refuses any other, and one that changed).
    const local = ctx.plan.targets[0]?.path;
    if (local === undefined) return fail(ctx.lang, text('내려받을 위치가 계획에 없습니다.', 'The plan names no local file.'), undefined, 'refused');
    const outcome = await ctx.ssh.download({
      host: args.host,
      remotePath: args.remotePath,
      localPath: local,
      overwrite: args.overwrite === true,
      timeoutMs: clampTimeout(undefined, ctx.policy),
      signal: ctx.signal,
    });
    switch (outcome.kind) {
      case 'downloaded':
        return ok(
          ctx.lang === 'ko' ? `내려받았습니다: '${args.path}' (${humanSize(outcome.bytes)})` : `Downloaded '${args.path}' (${humanSize(outcome.bytes)})`,
          { host: args.host, remotePath: args.remotePath, path: local, bytes: outcome.bytes, durationMs: outcome.durationMs },
        );
      case 'timed-out':
        return { outcome: 'timeout', text: '', marker: `[timed out after ${outcome.timeoutMs} ms]`, details: { host: args.host } };
      case 'cancelled':
        return { outcome: 'cancelled', text: '', marker: '[cancelled]', details: { host: args.host } };
      case 'refused':
        return fail(ctx.lang, outcome.message, { reason: outcome.reason }, 'refused');
      case 'failed':
        return fail(ctx.lang, outcome.message, { reason: outcome.reason });
    }
  },
});
