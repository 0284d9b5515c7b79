import { Type } from '@sinclair/typebox';
import { defineTool } from '../kit/define-tool';
import { checkSources } from '../kit/targets';
import { executeTransfer, planTransfer, summarizeTransfer } from '../kit/transfer';

const input = Type.Object(
  {
    from: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 5000 })], {
      description: 'File or folder to copy, or a glob such as "reports/*.docx", or a list of paths and globs (e.g. ["a.jpg", "b.jpg"]).',
    }),
    to: Type.String({ description: 'Path of the copy, or the folder to copy into (required when several match; created if missing).' }),
    onConflict: Type.Optional(
      Type.Union([Type.Literal('refuse'), Type.Literal('skip'), Type.Literal('keepBoth')], {
        description: 'Where a name is taken: refuse (default: nothing is done), skip that entry, or keepBoth (the new one gets "name (2).ext").',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Placement rules (into a folder vs. new name, never overwrite) are documented in tools/kit/transfer.ts. */
export const filesystemCopy = defineTool({
  name: 'filesystem.copy',
  description: {
    ko: '복사합니다. from에 글롭(*.docx)이나 경로 목록이면 to는 폴더(없으면 만듦). 덮어쓰지 않음(onConflict: 건너뛰기·둘 다 두기).',
    en: 'Copy files and folders. A glob or a list of paths in from copies all at once; then to is a folder (created if missing). Never overwrites (onConflict: skip or keepBoth).',
  },
  keywords: ['복사', '사본', '백업', 'copy', 'duplicate', 'cp', 'backup'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['from', 'to'] },
  concurrency: 'exclusive',
  capabilities: ['files'],
  precheck: (args, ctx) => checkSources(args.from, 'from', ctx),
  plan: (args, ctx) => planTransfer(args, ctx, 'copy'),
  summarize: (_args, plan, { files }) => summarizeTransfer(plan, files, 'copy'),
  execute: (_args, ctx) => executeTransfer(ctx, 'copy'),
});
