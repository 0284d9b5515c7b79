import { Type } from '@sinclair/typebox';
import { defineTool } from '../kit/define-tool';
import { checkSources } from '../kit/targets';
import { executeTransfer, planTransfer, summarizeTransfer } from '../kit/transfer';

const input = Type.Object(
  {
    from: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 5000 })], {
      description: 'File or folder to move, or a glob such as "downloads/*.xlsx", or a list of paths and globs (e.g. ["a.jpg", "b.jpg"]).',
    }),
    to: Type.String({ description: 'New path, or the folder to move into (required when several match; created if missing).' }),
    onConflict: Type.Optional(
      Type.Union([Type.Literal('refuse'), Type.Literal('skip'), Type.Literal('keepBoth')], {
        description: 'Where a name is taken: refuse (default: nothing is done), skip that entry, or keepBoth (the new one gets "name (2).ext").',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Placement rules (into a folder vs. rename, never overwrite) are documented in tools/kit/transfer.ts. */
export const filesystemMove = defineTool({
  name: 'filesystem.move',
  description: {
    ko: '옮기기·이름 바꾸기. from에 글롭(*.xlsx)이나 경로 목록이면 to는 폴더(없으면 만듦, mkdir 불필요). 덮어쓰지 않음(onConflict).',
    en: 'Move or rename files and folders. A glob or a list of paths in from moves all at once; then to is a folder (created if missing: no mkdir needed). Never overwrites (onConflict: skip or keepBoth).',
  },
  keywords: ['옮기기', '이동', '이름 바꾸기', '정리', 'move', 'rename', 'mv', 'organize'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['from', 'to'] },
  concurrency: 'exclusive',
  capabilities: ['files'],
  precheck: (args, ctx) => checkSources(args.from, 'from', ctx),
  plan: (args, ctx) => planTransfer(args, ctx, 'move'),
  summarize: (_args, plan, { files }) => summarizeTransfer(plan, files, 'move'),
  execute: (_args, ctx) => executeTransfer(ctx, 'move'),
});
