import { Type } from '@sinclair/typebox';
import { pick, text, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlanContext, type PlannedTarget } from '../kit/define-tool';
import { fail } from '../kit/results';
import type { TextEncodingName } from '../kit/text-decoding';
import { humanSize, quoted } from '../kit/format';
import { baseName, samePath } from '../kit/paths';
import { attempt, displayOf, emptyPathText, refusal, renderRun, runTargets, sameFingerprint } from '../kit/targets';
import {
  detectLineEnding,
  encodeAs,
  encodingLabel,
  loadText,
  precheckWholeWrite,
  renderDiff,
  renderHead,
  splitLines,
  toCrlf,
  toLf,
  unencodable,
  wholeChange,
  wholeWritePlan,
  withFolderNote,
  writeDestination,
  type WriteDestination,
} from '../kit/text-file';

/** An existing file is read for the diff and its encoding only up to this size; larger ones get a plain note. */
const MAX_COMPARE_BYTES = 16 * 1024 * 1024;

const input = Type.Object(
  {
    path: Type.String({ description: 'File to write, relative to the workspace (e.g. "reports/summary.txt").' }),
    content: Type.String({ description: 'The complete text to store in the file.' }),
    overwrite: Type.Optional(Type.Boolean({ description: 'Replace the file if it already exists (default false).' })),
  },
  { additionalProperties: false },
);

interface PreparedWrite extends WriteDestination {
  readonly bytes: Uint8Array;
  readonly encoding: TextEncodingName;
  readonly crlf: boolean;
  readonly note: Text | undefined;
  readonly preview: string;
}

function lineCount(content: string): number {
  return splitLines(toLf(content)).length;
}

/**
 * Everything a write needs, computed from the arguments and the file as it is now. The plan and
 * the execution both call it; execution then writes only if the file still has the approved
 * fingerprint, so the bytes written are the ones the preview described.
 */
async function prepareWrite(args: { path: string; content: string; overwrite?: boolean | undefined }, ctx: PlanContext): Promise<PreparedWrite | Failure> {
  const { files, lang } = ctx;
  const destination = await writeDestination(args, ctx);
  if (isFailure(destination)) return destination;
  const { path, existing } = destination;

  let encoding: TextEncodingName = /\.csv$/i.test(baseName(path))
    ? // Korean Excel opens a BOM-less UTF-8 CSV as CP949 and shows garbage; the BOM makes it read UTF-8.
      'utf-8-bom'
    : 'utf-8';
  let crlf = false;
  let note: Text | undefined;
  let preview: string;

  if (existing && existing.size <= MAX_COMPARE_BYTES) {
    const old = await attempt(files, () => loadText(files, args.path, existing.size));
    if ('failure' in old) return old;
    if (old.binary) {
      preview = `${pick(text(`[텍스트가 아닌 파일(${humanSize(existing.size)}) 대신 아래 내용을 씁니다]`, `[replaces a non-text file of ${humanSize(existing.size)} with:]`), lang)}\n${renderHead(args.content, lang)}`;
    } else {
      // An overwritten file keeps its encoding and line endings, as an editor would: a CP949 file
      // that suddenly became UTF-8 shows garbage in the old programs that read it.
      encoding = old.encoding;
      crlf = detectLineEnding(old.text) === 'crlf' && !args.content.includes('\r\n');
      const bad = unencodable(args.content, encoding);
      if (bad.length > 0) {
        note = text(
          `원래 인코딩 ${encodingLabel(encoding)}로는 ${bad.join(' ')} 글자를 저장할 수 없어 UTF-8로 저장합니다.`,
          `The file's encoding ${encodingLabel(encoding)} cannot store ${bad.join(' ')}, so it is saved as UTF-8.`,
        );
        encoding = 'utf-8';
      }
      const oldLines = splitLines(toLf(old.text));
      const ranges = wholeChange(oldLines, splitLines(toLf(args.content)));
      if (ranges.length === 0 && toLf(old.text) === toLf(args.content)) {
        return failure(
          text(
            `'${args.path}'에 이미 똑같은 내용이 있습니다. 저장할 필요가 없습니다.`,
            `'${args.path}' already has exactly this content. There is nothing to write.`,
          ),
        );
      }
      preview = renderDiff(oldLines, ranges, lang);
    }
  } else if (existing) {
    preview = `${pick(text(`[${humanSize(existing.size)} 파일 전체를 아래 내용으로 바꿉니다]`, `[replaces the whole ${humanSize(existing.size)} file with:]`), lang)}\n${renderHead(args.content, lang)}`;
  } else {
    preview = renderHead(args.content, lang);
  }
  if (note) preview = `${pick(note, lang)}\n${preview}`;
  const stored = crlf ? toCrlf(args.content) : args.content;
  return { ...destination, bytes: encodeAs(stored, encoding), encoding, crlf, note, preview: withFolderNote(preview, destination, ctx) };
}

/** The plan's file target (a missing parent folder, if any, comes first and has no fingerprint). */
function fileTarget(targets: readonly PlannedTarget[]): PlannedTarget | undefined {
  return targets[targets.length - 1];
}

function writtenHeadline(shown: string, replaced: boolean, lines: number, prepared: PreparedWrite): Text {
  const enc = encodingLabel(prepared.encoding) + (prepared.crlf ? ', CRLF' : '');
  const size = humanSize(prepared.bytes.length);
  return replaced
    ? text(`${quoted(shown, '을')} 덮어썼습니다 (${lines}줄, ${size}, ${enc}).`, `Replaced '${shown}' (${lines} lines, ${size}, ${enc}).`)
    : text(`${quoted(shown, '을')} 만들었습니다 (${lines}줄, ${size}, ${enc}).`, `Created '${shown}' (${lines} lines, ${size}, ${enc}).`);
}

function notWritten(shown: string): Text {
  return text(`${quoted(shown, '을')} 저장하지 못했습니다.`, `'${shown}' was not written.`);
}

export const filesystemWrite = defineTool({
  name: 'filesystem.write',
  description: {
    ko: '텍스트 파일을 새로 만듭니다. 있는 파일을 바꾸려면 overwrite: true (원래 인코딩 유지). 일부만 고칠 때는 filesystem.edit.',
    en: 'Create a text file. To replace an existing file pass overwrite: true (its encoding is kept). To change part of a file use filesystem.edit.',
  },
  keywords: ['쓰기', '저장', '새 파일', '만들기', '덮어쓰기', 'write', 'save', 'create file', 'overwrite'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  precheck: (args, ctx) => precheckWholeWrite(args, ctx),

  async plan(args, ctx): Promise<Plan | Failure> {
    const prepared = await prepareWrite(args, ctx);
    return isFailure(prepared) ? prepared : wholeWritePlan(prepared, prepared.preview);
  },

  summarize(args, plan, { files }) {
    const target = fileTarget(plan.targets);
    const shown = target ? displayOf(files, target.path) : args.path;
    const lines = lineCount(args.content);
    const folder = plan.targets.length > 1 && plan.targets[0] ? displayOf(files, plan.targets[0].path) : undefined;
    const folderKo = folder ? ` (새 폴더 ${quoted(folder)} 포함)` : '';
    const folderEn = folder ? ` (creating the folder '${folder}')` : '';
    return target?.fingerprint
      ? text(`${quoted(shown, '을')} 새 내용(${lines}줄)으로 덮어씁니다${folderKo}`, `Replaces '${shown}' with new content (${lines} lines)${folderEn}`)
      : text(`새 파일 ${quoted(shown, '을')} 만듭니다 (${lines}줄)${folderKo}`, `Creates the new file '${shown}' (${lines} lines)${folderEn}`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const target = fileTarget(ctx.plan.targets);
    if (!target) return fail(lang, emptyPathText('path'));
    const shown = displayOf(files, target.path);
    let prepared: PreparedWrite | undefined;
    const run = await runTargets(ctx, async (t) => {
      if (!samePath(t.path, target.path)) {
        await files.mkdir(t.path);
        return null;
      }
      const now = await prepareWrite(args, ctx);
      if (isFailure(now)) return now;
      if (!samePath(now.path, target.path) || !sameFingerprint(now.fingerprint, target.fingerprint)) return refusal('CHANGED', shown);
      prepared = now;
      // Overwrite only what was approved as existing; a file that appeared since is not replaced.
      await files.writeAtomic(target.path, now.bytes, { overwrite: target.fingerprint !== null });
      return null;
    });
    const refused = run.done.find((d) => d.value !== null)?.value;
    if (refused) return fail(lang, refused.failure);
    const written = run.done.some((d) => samePath(d.target.path, target.path));
    const headline = written && prepared ? writtenHeadline(shown, target.fingerprint !== null, lineCount(args.content), prepared) : notWritten(shown);
    const noteLines = written && prepared?.note ? [pick(prepared.note, lang)] : [];
    const result = renderRun(run, lang, { headline, doneLines: noteLines, details: prepared ? { encoding: prepared.encoding, bytes: prepared.bytes.length } : {} }, files);
    return written ? result : { ...result, outcome: result.outcome === 'cancelled' ? 'cancelled' : 'error' };
  },
});
