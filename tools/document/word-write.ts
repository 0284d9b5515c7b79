import { Type } from '@sinclair/typebox';
import { pick, text, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlanContext, type PlannedTarget } from '../kit/define-tool';
import { fail } from '../kit/results';
import { humanSize, quoted } from '../kit/format';
import { samePath } from '../kit/paths';
import { attempt, displayOf, emptyPathText, refusal, renderRun, runTargets, sameFingerprint } from '../kit/targets';
import { precheckWholeWrite, renderDiff, renderHead, wholeChange, wholeWritePlan, withFolderNote, writeDestination, type WriteDestination } from '../kit/text-file';
import { blocksToLines, markdownToBlocks, type DocBlock } from '../kit/document-text';
import { DOCUMENT_TIME_LIMIT_MS, extensionOf, withTimeLimit } from '../kit/document-files';
import { buildDocx } from './word-build';

/** An existing file is read for the approval's diff only up to this size; larger ones get a plain note. */
const MAX_COMPARE_BYTES = 50 * 1024 * 1024;

const input = Type.Object(
  {
    path: Type.String({ description: 'New Word file (.docx), relative to the workspace (e.g. "보고서/요약.docx").' }),
    content: Type.String({
      description: 'The document as Markdown-like text: "# " headings, one paragraph per line, "- " or "1. " list items (indent 2 spaces per level), "| a | b |" table rows.',
    }),
    overwrite: Type.Optional(Type.Boolean({ description: 'Replace the file if it already exists (default false).' })),
  },
  { additionalProperties: false },
);

function wrongKind(path: string, ext: string): Failure {
  if (['docm', 'dotm'].includes(ext)) {
    return failure(
      text(
        `'${path}'은(는) 매크로를 담는 Word 형식(.${ext})이라 만들지 않습니다(매크로 문서는 프로그램 실행과 같습니다). 이름을 .docx로 바꿔 다시 요청하세요.`,
        `'${path}' is a macro-enabled Word format (.${ext}), which is never written (a macro document amounts to running a program). Repeat the request with a .docx name.`,
      ),
    );
  }
  return failure(
    text(
      `document.word.write는 Word 문서(.docx)만 만듭니다. '${path}' 대신 .docx로 끝나는 이름을 주세요. 텍스트 파일은 filesystem.write로 씁니다.`,
      `document.word.write creates Word documents (.docx) only. Give a name ending in .docx instead of '${path}'. Text files are written with filesystem.write.`,
    ),
  );
}

interface PreparedWrite extends WriteDestination {
  readonly blocks: readonly DocBlock[];
  readonly preview: string;
}

/** The text lines of the existing document, for the diff; undefined when it cannot be read. */
async function existingLines(ctx: PlanContext, path: string, size: number): Promise<string[] | undefined> {
  if (size > MAX_COMPARE_BYTES) return undefined;
  const bytes = await attempt(ctx.files, () => ctx.files.readBytes(path, { maxBytes: size + 1 }));
  if ('failure' in bytes) return undefined;
  // mammoth in the host's parse thread, ended at the time limit.
  const parsed = await withTimeLimit((signal) => ctx.documents.parse({ kind: 'docx', bytes, signal }), DOCUMENT_TIME_LIMIT_MS, new AbortController().signal).catch(() => null);
  return parsed?.ok && parsed.value.ok ? blocksToLines(parsed.value.blocks) : undefined;
}

/**
 * Everything a write needs, from the arguments and the file as it is now. The plan and the
 * execution both call it; execution writes only if the file still has the approved fingerprint.
 */
async function prepareWrite(args: { path: string; content: string; overwrite?: boolean | undefined }, ctx: PlanContext): Promise<PreparedWrite | Failure> {
  const { lang } = ctx;
  const blocks = markdownToBlocks(args.content);
  const destination = await writeDestination(args, ctx, () => {
    const ext = extensionOf(args.path);
    if (ext !== 'docx') return wrongKind(args.path, ext);
    if (blocks.length > 0) return null;
    return failure(text('content가 비어 있습니다. 문서에 넣을 제목·문단·목록·표를 주세요.', 'content is empty. Give the headings, paragraphs, lists and tables the document should hold.'));
  });
  if (isFailure(destination)) return destination;
  const { path, existing } = destination;

  const newLines = blocksToLines(blocks);
  let preview: string;
  if (existing) {
    const old = await existingLines(ctx, path, existing.size);
    preview = old
      ? renderDiff(old, wholeChange(old, newLines), lang)
      : `${pick(text(`[읽을 수 없는 ${humanSize(existing.size)} 파일 전체를 아래 내용으로 바꿉니다]`, `[replaces the whole ${humanSize(existing.size)} file, which could not be read, with:]`), lang)}\n${renderHead(newLines.join('\n'), lang)}`;
  } else {
    preview = renderHead(newLines.join('\n'), lang);
  }
  return { ...destination, blocks, preview: withFolderNote(preview, destination, ctx) };
}

function fileTarget(targets: readonly PlannedTarget[]): PlannedTarget | undefined {
  return targets[targets.length - 1];
}

function countsText(blocks: readonly DocBlock[]): Text {
  const n = (kind: DocBlock['kind']) => blocks.filter((b) => b.kind === kind).length;
  return text(`제목 ${n('heading')}, 문단 ${n('paragraph')}, 목록 항목 ${n('listItem')}, 표 ${n('table')}`, `${n('heading')} headings, ${n('paragraph')} paragraphs, ${n('listItem')} list items, ${n('table')} tables`);
}

function written(shown: string, replaced: boolean, blocks: readonly DocBlock[], bytes: number): Text {
  const c = countsText(blocks);
  const size = humanSize(bytes);
  return replaced
    ? text(`${quoted(shown, '을')} 새 Word 문서로 덮어썼습니다 (${c.ko}, ${size}).`, `Replaced '${shown}' with a new Word document (${c.en}, ${size}).`)
    : text(`Word 문서 ${quoted(shown, '을')} 만들었습니다 (${c.ko}, ${size}).`, `Created the Word document '${shown}' (${c.en}, ${size}).`);
}

export const documentWordWrite = defineTool({
  name: 'document.word.write',
  description: {
    ko: 'Markdown 형태의 글(제목 #, 목록 -, 표 |)로 새 Word 문서(.docx)를 만듭니다. 있는 파일을 바꾸려면 overwrite: true.',
    en: 'Create a Word document (.docx) from Markdown-like text (# headings, - lists, | tables). To replace an existing file pass overwrite: true.',
  },
  keywords: ['워드 만들기', '문서 작성', '보고서 작성', 'docx', 'word', 'create document', 'write document'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'exclusive',
  capabilities: ['files', 'documents'],

  precheck: (args, ctx) =>
    precheckWholeWrite(args, ctx, (path) => {
      const ext = extensionOf(path);
      return ext === 'docx' ? null : wrongKind(path, ext);
    }),

  async plan(args, ctx): Promise<Plan | Failure> {
    const prepared = await prepareWrite(args, ctx);
    return isFailure(prepared) ? prepared : wholeWritePlan(prepared, prepared.preview);
  },

  summarize(args, plan, { files }) {
    const target = fileTarget(plan.targets);
    const shown = target ? displayOf(files, target.path) : args.path;
    const c = countsText(markdownToBlocks(args.content));
    return target?.fingerprint
      ? text(`Word 문서 ${quoted(shown, '을')} 새 내용(${c.ko})으로 덮어씁니다`, `Replaces the Word document '${shown}' with new content (${c.en})`)
      : text(`새 Word 문서 ${quoted(shown, '을')} 만듭니다 (${c.ko})`, `Creates the new Word document '${shown}' (${c.en})`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const target = fileTarget(ctx.plan.targets);
    if (!target) return fail(lang, emptyPathText('path'));
    const shown = displayOf(files, target.path);
    let done: { blocks: readonly DocBlock[]; bytes: number } | undefined;
    const run = await runTargets(ctx, async (t) => {
      if (!samePath(t.path, target.path)) {
        await files.mkdir(t.path);
        return null;
      }
      const now = await prepareWrite(args, ctx);
      if (isFailure(now)) return now;
      if (!samePath(now.path, target.path) || !sameFingerprint(now.fingerprint, target.fingerprint)) return refusal('CHANGED', shown);
      const bytes = await buildDocx(now.blocks);
      // Overwrite only what was approved as existing; a file that appeared since is not replaced.
      await files.writeAtomic(target.path, bytes, { overwrite: target.fingerprint !== null });
      done = { blocks: now.blocks, bytes: bytes.length };
      return null;
    });
    const refused = run.done.find((d) => d.value !== null)?.value;
    if (refused) return fail(lang, refused.failure);
    const wrote = done !== undefined && run.done.some((d) => samePath(d.target.path, target.path));
    const headline = wrote && done ? written(shown, target.fingerprint !== null, done.blocks, done.bytes) : text(`${quoted(shown, '을')} 저장하지 못했습니다.`, `'${shown}' was not written.`);
    const result = renderRun(run, lang, { headline, doneLines: [], details: done ? { format: 'docx', bytes: done.bytes } : {} }, files);
    return wrote ? result : { ...result, outcome: result.outcome === 'cancelled' ? 'cancelled' : 'error' };
  },
});
