import { Type } from '@sinclair/typebox';
import { defineTool } from '../kit/define-tool';
import { checkSource } from '../kit/targets';
import { executeTransfer, planTransfer, summarizeTransfer } from '../kit/transfer';

const input = Type.Object(
  {
    from: Type.String({ description: 'File or folder to copy, or a glob such as "reports/*.docx".' }),
    to: Type.String({ description: 'Path of the copy, or the folder to copy into (required when several match; created if missing).' }),
  },
  { additionalProperties: false },
);

/** Placement rules (into a folder vs. new name, never overwrite) are documented in tools/kit/transfer.ts. */
export const filesystemCopy = defineTool({
  name: 'filesystem.copy',
  description: {
    ko: '파일이나 폴더를 복사합니다. from에 글롭(예: *.docx)을 쓰면 한 번에 복사하고, 그때 to는 폴더입니다. 덮어쓰지 않습니다.',
    en: 'Copy files and folders. A glob in from (e.g. *.docx) copies all matches at once; then to is a folder. Never overwrites.',
  },
  keywords: ['복사', '사본', '백업', 'copy', 'duplicate', 'cp', 'backup'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['from', 'to'] },
  concurrency: 'exclusive',
  capabilities: ['files'],
  precheck: (args, ctx) => checkSource(args.from, 'from', ctx),
  plan: (args, ctx) => planTransfer(args, ctx, 'copy'),
  summarize: (_args, plan, { files }) => summarizeTransfer(plan, files, 'copy'),
  execute: (_args, ctx) => executeTransfer(ctx, 'copy'),
});
