import { Type } from '@sinclair/typebox';
import type { Fingerprint } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlanContext } from '../kit/define-tool';
import { fail } from '../kit/results';
import type { TextEncodingName } from '../kit/text-decoding';
import { humanSize, quoted } from '../kit/format';
import { attempt, checkExisting, displayOf, emptyPathText, notRegularFile, refusal, renderRun, runTargets, sameFingerprint } from '../kit/targets';
import {
  binaryFileText,
  detectLineEnding,
  encodeAs,
  encodingLabel,
  loadText,
  renderDiff,
  splitLines,
  toCrlf,
  toLf,
  unencodable,
  type ChangedRange,
  type LineEnding,
} from '../kit/text-file';

/**
 * Largest file edit reads whole. Office text files are far smaller; a bigger one is a log or a data
 * dump, which a find-and-replace by a model should not rewrite in one go.
 */
const MAX_EDIT_BYTES = 16 * 1024 * 1024;
/** How many occurrence line numbers an "occurs N times" error lists. */
const MAX_LISTED_OCCURRENCES = 10;

const input = Type.Object(
  {
    path: Type.String({ description: 'File to change, relative to the workspace.' }),
    oldText: Type.String({ description: 'Exact text to replace, copied from the file (include nearby lines to make it unique).' }),
    newText: Type.String({ description: 'Text to put in its place.' }),
    replaceAll: Type.Optional(Type.Boolean({ description: 'Replace every occurrence instead of exactly one (default false).' })),
  },
  { additionalProperties: false },
);

type EditArgs = { path: string; oldText: string; newText: string; replaceAll?: boolean | undefined };

interface PreparedEdit {
  readonly path: string;
  readonly fingerprint: Fingerprint;
  readonly bytes: Uint8Array;
  readonly count: number;
  readonly encoding: TextEncodingName;
  readonly lineEnding: LineEnding;
  readonly preview: string;
}

/** Start offsets of non-overlapping occurrences of `needle` in `haystack`. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineStartsOf(content: string): number[] {
  const starts = [0];
  for (let i = content.indexOf('\n'); i >= 0; i = content.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 0-based line containing character `pos` (binary search over line starts). */
function lineOf(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Diff ranges for the replaced places: occurrences on the same or adjacent lines form one block,
 * and each block's new lines are the block's old text with the replacements applied.
 */
function editRanges(work: string, at: readonly number[], needle: string, replacement: string): ChangedRange[] {
  const starts = lineStartsOf(work);
  const blocks: { first: number; last: number; hits: number[] }[] = [];
  for (const pos of at) {
    const first = lineOf(starts, pos);
    const last = lineOf(starts, pos + needle.length - 1);
    const open = blocks[blocks.length - 1];
    if (open && first <= open.last + 1) {
      open.last = Math.max(open.last, last);
      open.hits.push(pos);
    } else {
      blocks.push({ first, last, hits: [pos] });
    }
  }
  const ranges: ChangedRange[] = [];
  let shift = 0;
  for (const b of blocks) {
    const from = starts[b.first] ?? 0;
    const to = starts[b.last + 1] ?? work.length;
    let replaced = '';
    let cursor = from;
    for (const pos of b.hits) {
      replaced += work.slice(cursor, pos) + replacement;
      cursor = pos + needle.length;
    }
    replaced += work.slice(cursor, to);
    const added = splitLines(replaced);
    const oldCount = b.last + 1 - b.first;
    ranges.push({ oldStart: b.first, oldEnd: b.last + 1, newStart: b.first + shift, added });
    shift += added.length - oldCount;
  }
  return ranges;
}

function notFoundText(path: string, whitespaceOnly: boolean): Text {
  return whitespaceOnly
    ? text(
        `oldText가 '${path}'에 그대로는 없습니다. 띄어쓰기나 줄바꿈이 다릅니다. filesystem.read로 해당 부분을 다시 읽고 공백까지 정확히 복사하세요.`,
        `oldText does not occur in '${path}' exactly: spaces or line breaks differ. Read the part again with filesystem.read and copy it exactly, whitespace included.`,
      )
    : text(
        `oldText가 '${path}'에 없습니다. filesystem.read로 현재 내용을 읽고 바꿀 부분을 글자 그대로 복사해 oldText로 주세요.`,
        `oldText does not occur in '${path}'. Read the current content with filesystem.read and copy the part to change, character for character, into oldText.`,
      );
}

function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

async function prepareEdit(args: EditArgs, ctx: PlanContext): Promise<PreparedEdit | Failure> {
  const { files, lang } = ctx;
  if (args.path.trim() === '') return failure(emptyPathText('path'));
  if (args.oldText === '') {
    return failure(
      text(
        'oldText가 비어 있습니다. 바꿀 부분을 파일에서 그대로 복사해 주세요. 파일 전체를 바꾸려면 filesystem.write에 overwrite: true를 쓰세요.',
        'oldText is empty. Copy the part to change from the file. To replace the whole file use filesystem.write with overwrite: true.',
      ),
    );
  }
  if (args.oldText === args.newText) {
    return failure(text('oldText와 newText가 같아 바뀔 것이 없습니다. 바꿀 내용을 newText로 주세요.', 'oldText and newText are the same, so nothing would change. Put the new text in newText.'));
  }
  const info = await attempt(files, () => files.stat(args.path));
  if (info === null) return refusal('NOT_FOUND', args.path, files);
  if ('failure' in info) return info;
  if (info.type === 'directory') return refusal('IS_DIRECTORY', args.path);
  if (info.type !== 'file') return notRegularFile(args.path);
  if (info.size > MAX_EDIT_BYTES) {
    return failure(
      text(
        `'${args.path}'은(는) ${humanSize(info.size)}로 너무 커서 고칠 수 없습니다 (최대 ${humanSize(MAX_EDIT_BYTES)}). 필요한 부분은 search.text로 찾아 보세요.`,
        `'${args.path}' is ${humanSize(info.size)}, too large to edit (at most ${humanSize(MAX_EDIT_BYTES)}). Find the part you need with search.text.`,
      ),
    );
  }
  // With the content hash: the gate re-hashes before writing, so a same-size edit nobody saw is caught.
  const fingerprint = await attempt(files, () => files.fingerprint(args.path, { content: true }));
  if (fingerprint === null) return refusal('NOT_FOUND', args.path, files);
  if ('failure' in fingerprint) return fingerprint;
  const loaded = await attempt(files, () => loadText(files, args.path, info.size));
  if ('failure' in loaded) return loaded;
  if (loaded.binary) return failure(binaryFileText(args.path, info.size));
  if (!loaded.roundTrips) {
    // Re-encoding would change bytes outside the edit (invalid sequences, a cut character):
    // refuse rather than silently damage the rest of the file.
    return failure(
      text(
        `'${args.path}'에는 ${encodingLabel(loaded.encoding)}로 읽을 수 없는 바이트가 있어, 고치면 다른 부분이 손상될 수 있습니다. 파일 전체를 새로 쓰려면 filesystem.write에 overwrite: true를 쓰세요.`,
        `'${args.path}' contains bytes that are not valid ${encodingLabel(loaded.encoding)}; editing would damage other parts. To rewrite the whole file use filesystem.write with overwrite: true.`,
      ),
    );
  }

  // Models write '\n'; a CRLF file is edited in LF form and converted back, so both the match
  // and the file's Windows line endings survive. Mixed files are matched as they are.
  const lineEnding = detectLineEnding(loaded.text);
  const normalise = lineEnding !== 'mixed';
  const work = lineEnding === 'crlf' ? toLf(loaded.text) : loaded.text;
  const needle = normalise ? toLf(args.oldText) : args.oldText;
  const replacement = normalise ? toLf(args.newText) : args.newText;

  const at = occurrences(work, needle);
  if (at.length === 0) {
    const spaced = collapseWhitespace(needle);
    return failure(notFoundText(args.path, spaced !== '' && collapseWhitespace(work).includes(spaced)));
  }
  if (at.length > 1 && !args.replaceAll) {
    const starts = lineStartsOf(work);
    const lines = at.slice(0, MAX_LISTED_OCCURRENCES).map((pos) => lineOf(starts, pos) + 1);
    const more = at.length > MAX_LISTED_OCCURRENCES ? ', …' : '';
    return failure(
      text(
        `oldText가 '${args.path}'에 ${at.length}번 나옵니다 (줄 ${lines.join(', ')}${more}). 앞뒤 줄을 더 넣어 한 곳만 가리키게 하거나, 모두 바꾸려면 replaceAll: true를 주세요.`,
        `oldText occurs ${at.length} times in '${args.path}' (lines ${lines.join(', ')}${more}). Include neighbouring lines so it points to one place, or pass replaceAll: true to change all of them.`,
      ),
    );
  }
  const bad = unencodable(replacement, loaded.encoding);
  if (bad.length > 0) {
    return failure(
      text(
        `'${args.path}'은(는) ${encodingLabel(loaded.encoding)} 파일이라 newText의 ${bad.join(' ')} 글자를 저장할 수 없습니다. 그 글자를 빼거나 바꿔서 다시 요청하세요.`,
        `'${args.path}' is a ${encodingLabel(loaded.encoding)} file and cannot store ${bad.join(' ')} from newText. Leave those characters out or replace them, then try again.`,
      ),
    );
  }

  const edited = work.split(needle).join(replacement);
  const stored = lineEnding === 'crlf' ? toCrlf(edited) : edited;
  const preview = renderDiff(splitLines(work), editRanges(work, at, needle, replacement), lang);
  return {
    path: info.path,
    fingerprint,
    bytes: encodeAs(stored, loaded.encoding),
    count: at.length,
    encoding: loaded.encoding,
    lineEnding,
    preview,
  };
}

/** Short quote of an argument for the approval summary. */
function snippet(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 40 ? `${one.slice(0, 40)}…` : one;
}

function keptNote(prepared: PreparedEdit, lang: Lang): string {
  const enc = encodingLabel(prepared.encoding);
  const eol = prepared.lineEnding === 'crlf' ? ', CRLF' : '';
  return pick(text(`(${enc}${eol} 그대로 유지)`, `(${enc}${eol} kept)`), lang);
}

export const filesystemEdit = defineTool({
  name: 'filesystem.edit',
  description: {
    ko: '파일에서 oldText를 newText로 바꿉니다. oldText는 파일에 정확히 한 번 있어야 합니다(모두 바꾸려면 replaceAll: true). 인코딩과 줄바꿈은 유지됩니다.',
    en: 'Replace oldText with newText in a file. oldText must occur exactly once (replaceAll: true changes every occurrence). Encoding and line endings are kept.',
  },
  keywords: ['고치기', '수정', '바꾸기', '치환', '편집', 'edit', 'replace', 'modify', 'change text'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['path'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  precheck: (args, ctx) => checkExisting(args.path, 'path', ctx, 'file'),

  async plan(args, ctx): Promise<Plan | Failure> {
    const prepared = await prepareEdit(args, ctx);
    if (isFailure(prepared)) return prepared;
    return { targets: [{ path: prepared.path, fingerprint: prepared.fingerprint }], preview: prepared.preview };
  },

  summarize(args, plan, { files }) {
    const shown = plan.targets[0] ? displayOf(files, plan.targets[0].path) : args.path;
    const from = snippet(args.oldText);
    const to = snippet(args.newText);
    const all = args.replaceAll ? text(' (나오는 곳 모두)', ' (every occurrence)') : text('', '');
    return text(`${quoted(shown)}에서 ${quoted(from, '을', '"')} ${quoted(to, '로', '"')} 바꿉니다${all.ko}`, `Changes "${from}" to "${to}" in '${shown}'${all.en}`);
  },

  async execute(args, ctx) {
    const { files, lang } = ctx;
    const target = ctx.plan.targets[0];
    if (!target) return fail(lang, emptyPathText('path'));
    const shown = displayOf(files, target.path);
    let prepared: PreparedEdit | undefined;
    const run = await runTargets(ctx, async () => {
      // Recomputed from the file as it is now; runTargets has just confirmed it is the approved one.
      const now = await prepareEdit(args, ctx);
      if (isFailure(now)) return now;
      if (!sameFingerprint(now.fingerprint, target.fingerprint)) return refusal('CHANGED', shown);
      prepared = now;
      await files.writeAtomic(target.path, now.bytes, { overwrite: true });
      return null;
    });
    const refused = run.done.find((d) => d.value !== null)?.value;
    if (refused) return fail(lang, refused.failure);
    const headline = prepared
      ? text(
          `${quoted(shown)}에서 ${prepared.count}곳을 고쳤습니다 ${keptNote(prepared, 'ko')}.`,
          `Changed ${prepared.count} place(s) in '${shown}' ${keptNote(prepared, 'en')}.`,
        )
      : text(`${quoted(shown, '을')} 고치지 못했습니다.`, `'${shown}' was not changed.`);
    return renderRun(run, lang, { headline, doneLines: [], details: prepared ? { replaced: prepared.count, encoding: prepared.encoding } : {} }, files);
  },
});
