import { Type } from '@sinclair/typebox';
import { defineTool } from '../kit/define-tool';
import { checkSource } from '../kit/targets';
import { executeTransfer, planTransfer, summarizeTransfer } from '../kit/transfer';

const input = Type.Object(
  {
    from: Type.String({ description: 'File or folder to move, or a glob such as "downloads/*.xlsx".' }),
    to: Type.String({ description: 'New path, or the folder to move into (required when several match; created if missing).' }),
  },
  { additionalProperties: false },
);

/** Placement rules (into a folder vs. rename, never overwrite) are documented in tools/kit/transfer.ts. */
export const filesystemMove = defineTool({
  name: 'filesystem.move',
  description: {
    ko: '파일이나 폴더를 옮기거나 이름을 바꿉니다. from에 글롭(예: *.xlsx)을 쓰면 한 번에 옮기고, 그때 to는 폴더입니다. 덮어쓰지 않습니다.',
    en: 'Move or rename files and folders. A glob in from (e.g. *.xlsx) moves all matches at once; then to is a folder. Never overwrites.',
  },
  keywords: ['옮기기', '이동', '이름 바꾸기', '정리', 'move', 'rename', 'mv', 'organize'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['from', 'to'] },
  concurrency: 'exclusive',
  capabilities: ['files'],
  precheck: (args, ctx) => checkSource(args.from, 'from', ctx),
  plan: (args, ctx) => planTransfer(args, ctx, 'move'),
  summarize: (_args, plan, { files }) => summarizeTransfer(plan, files, 'move'),
  execute: (_args, ctx) => executeTransfer(ctx, 'move'),
});
