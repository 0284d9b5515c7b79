import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { isFileAccessError, type Fingerprint } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlanContext, type PlannedTarget, type ReadOnlyFileAccess } from '../kit/define-tool';
import { humanSize } from '../kit/format';
import { baseName, parentPath, relativeTo, samePath } from '../kit/paths';
import { fail } from '../kit/results';
import { attempt, checkSources, displayOf, emptyPathText, expandSourceSpecs, explainFileError, refuseWildcardName, refusal, specText } from '../kit/targets';
import { collidingEntriesText, collisionKey } from './entry-names';
import { MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_ZIP_INPUT_BYTES } from './limits';

const input = Type.Object(
  {
    from: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 5000 })], {
      description: 'File, folder or glob (e.g. "보고서/*.xlsx"), or a list of them.',
    }),
    to: Type.String({ description: 'The new .zip file, e.g. "보고서.zip".' }),
    overwrite: Type.Optional(Type.Boolean({ description: 'Replace an existing .zip (default false).' })),
  },
  { additionalProperties: false },
);

interface Args {
  from: string | string[];
  to: string;
  overwrite?: boolean | undefined;
}

interface Member {
  /** Absolute source path. */
  readonly path: string;
  /** Name inside the zip ('/'-separated). */
  readonly name: string;
  readonly size: number;
}

interface Prepared {
  readonly zipPath: string;
  readonly existing: Fingerprint | null;
  readonly createFolder: string | undefined;
  readonly members: readonly Member[];
  readonly totalBytes: number;
  readonly digest: string;
}

const planFacts = new WeakMap<Plan, { readonly zip: string; readonly files: number; readonly bytes: number; readonly replaces: boolean }>();

/** Formats that are compressed already: deflating them again costs time and saves nothing. */
const STORED = /\.(zip|7z|rar|gz|bz2|xz|jpe?g|png|gif|webp|heic|mp3|mp4|m4a|mov|avi|mkv|xlsx|docx|pptx|hwpx|odt|ods|pdf)$/i;

function tooMuch(field: string): Failure {
  return failure(
    text(
      `${field}의 파일이 너무 많거나 큽니다 (한 압축 파일에 파일 ${MAX_ENTRIES}개, 모두 ${humanSize(MAX_ZIP_INPUT_BYTES)}까지, 파일 하나는 ${humanSize(MAX_ENTRY_BYTES)}까지). 폴더를 나눠 여러 압축 파일로 만드세요.`,
      `${field} has too many or too large files (one zip holds up to ${MAX_ENTRIES} files, ${humanSize(MAX_ZIP_INPUT_BYTES)} in all, ${humanSize(MAX_ENTRY_BYTES)} per file). Split the folder into several zips.`,
    ),
  );
}

/** The files a zip of `from` contains, with their names inside it: a folder goes in under its own name, as Explorer does. */
async function membersOf(args: Args, ctx: PlanContext, zipPath: string): Promise<{ members: Member[]; total: number } | Failure> {
  const { files } = ctx;
  const expanded = await expandSourceSpecs(args.from, 'from', ctx);
  if (isFailure(expanded)) return expanded;
  const members: Member[] = [];
  let total = 0;
  const add = (path: string, name: string, size: number): Failure | null => {
    // The zip being written is not put into itself.
    if (samePath(path, zipPath)) return null;
    if (size > MAX_ENTRY_BYTES) return tooMuch('from');
    total += size;
    members.push({ path, name, size });
    return members.length > MAX_ENTRIES || total > MAX_ZIP_INPUT_BYTES ? tooMuch('from') : null;
  };
  for (const [i, source] of expanded.paths.entries()) {
    const fp = expanded.fingerprints[i]!;
    if (fp.type === 'file') {
      const refused = add(source, baseName(source), fp.size);
      if (refused) return refused;
      continue;
    }
    if (fp.type !== 'directory') continue; // links and devices are not archived
    const top = parentPath(source);
    try {
      for await (const entry of files.walk(source, { respectIgnoreFiles: false, includeHidden: true, maxFiles: MAX_ENTRIES + 1 })) {
        const refused = add(entry.path, relativeTo(top, entry.path).replace(/\\/g, '/'), entry.size);
        if (refused) return refused;
      }
    } catch (e) {
      if (!isFileAccessError(e)) throw e;
      return failure(explainFileError(e, files));
    }
  }
  if (members.length === 0) {
    return failure(text(`${specText(args.from)}에 압축할 파일이 없습니다 (빈 폴더). 파일이 든 폴더나 파일을 주세요.`, `There are no files to compress in ${specText(args.from)} (empty folder). Give a folder with files in it, or files.`));
  }
  const seen = new Map<string, string>();
  for (const m of members) {
    const key = collisionKey(m.name.split('/'));
    const before = seen.get(key);
    if (before !== undefined) return failure(collidingEntriesText(before, m.name));
    seen.set(key, m.name);
  }
  return { members, total };
}

async function digestOf(files: ReadOnlyFileAccess, members: readonly Member[]): Promise<string> {
  const hash = createHash('sha256');
  for (const m of members) {
    const fp = await files.fingerprint(m.path);
    hash.update(`${m.name}\u0000${JSON.stringify(fp)}\u0000`);
  }
  return hash.digest('hex').slice(0, 32);
}

async function prepare(args: Args, ctx: PlanContext): Promise<Prepared | Failure> {
  const { files } = ctx;
  if (args.to.trim() === '') return failure(emptyPathText('to'));
  const wildcard = refuseWildcardName(args.to, 'to');
  if (wildcard) return wildcard;
  if (!/\.zip$/i.test(args.to.trim())) {
    return failure(text(`to는 .zip으로 끝나는 새 파일 이름이어야 합니다 (예: "${args.to.replace(/[\\/]+$/, '')}.zip").`, `to must be a new file name ending in .zip (e.g. "${args.to.replace(/[\\/]+$/, '')}.zip").`));
  }
  const checked = await attempt(files, () => files.check(args.to));
  if (typeof checked !== 'string') return checked;
  const existing = await attempt(files, () => files.stat(args.to));
  if (existing !== null && 'failure' in existing) return existing;
  if (existing?.type === 'directory') return refusal('IS_DIRECTORY', args.to, files);
  if (existing && existing.type !== 'file') return refusal('INVALID_PATH', args.to, files);
  if (existing && !args.overwrite) {
    return failure(text(`'${args.to}'이(가) 이미 있습니다. 다른 이름을 주거나 바꾸려면 overwrite: true를 주세요.`, `'${args.to}' already exists. Choose another name, or pass overwrite: true to replace it.`));
  }
  const zipPath = existing?.path ?? files.resolve(args.to);
  const parent = parentPath(zipPath);
  const parentInfo = await attempt(files, () => files.stat(parent));
  if (parentInfo !== null && 'failure' in parentInfo) return parentInfo;
  if (parentInfo && parentInfo.type !== 'directory') return refusal('NOT_DIRECTORY', displayOf(files, parent), files);
  const fingerprint = existing ? await attempt(files, () => files.fingerprint(zipPath)) : null;
  if (fingerprint !== null && 'failure' in fingerprint) return fingerprint;

  const found = await membersOf(args, ctx, zipPath);
  if (isFailure(found)) return found;
  const digest = await digestOf(files, found.members);
  return { zipPath, existing: fingerprint, createFolder: parentInfo === null ? parent : undefined, members: found.members, totalBytes: found.total, digest };
}

function renderPreview(p: Prepared, lang: Lang): string {
  return [
    pick(text(`압축 파일에 넣을 파일 ${p.members.length}개 (${humanSize(p.totalBytes)}):`, `${p.members.length} files (${humanSize(p.totalBytes)}) to put into the zip:`), lang),
    ...p.members.map((m) => `- ${m.name} (${humanSize(m.size)})`),
    `[files ${p.digest}]`,
  ].join('\n');
}

/**
 * A source file's whole content, in ranged reads (the host reads at most its read limit per call).
 * null: Stop was pressed; 'changed': the file is no longer the size that was approved.
 */
async function readWhole(files: ReadOnlyFileAccess, m: Member, signal: AbortSignal): Promise<Uint8Array | null | 'changed'> {
  const parts: Uint8Array[] = [];
  let done = 0;
  for (;;) {
    if (signal.aborted) return null;
    const bytes = await files.readBytes(m.path, { offset: done, maxBytes: Math.min(8 * 1024 * 1024, m.size + 1 - done) });
    if (bytes.length === 0) break;
    parts.push(bytes);
    done += bytes.length;
    if (done > m.size) return 'changed';
  }
  return done === m.size ? Buffer.concat(parts, done) : 'changed';
}

type Yazl = typeof import('yazl');
let loaded: Promise<Yazl> | undefined;
function yazl(): Promise<Yazl> {
  return (loaded ??= import('yazl').then((m) => ((m as { default?: Yazl }).default ?? m) as Yazl));
}

function changed(): Text {
  return text(
    '압축할 파일이 승인 뒤에 바뀌었거나(추가·삭제·수정), 정책 규칙이 그중 일부를 읽지 못하게 막아 압축하지 않았습니다. 같은 요청을 다시 하면 지금 상태로 승인을 받습니다.',
    'The files to compress changed after approval (added, removed or edited), or policy rules keep some of them from being read, so no zip was made. Repeat the request to approve them as they are now.',
  );
}

export const archiveZip = defineTool({
  name: 'archive.zip',
  description: {
    ko: '파일이나 폴더(경로·글롭·목록)를 새 .zip 파일로 압축합니다.',
    en: 'Compress files or folders (a path, glob or list) into a new .zip file.',
  },
  keywords: ['압축', '압축해줘', '압축하기', '묶어', '묶어줘', '집 파일', 'zip', 'compress', 'archive', 'bundle', 'pack'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['from', 'to'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  async precheck(args, ctx) {
    if (args.to.trim() === '') return failure(emptyPathText('to'));
    return checkSources(args.from, 'from', ctx);
  },

  async plan(args, ctx): Promise<Plan | Failure> {
    const p = await prepare(args, ctx);
    if (isFailure(p)) return p;
    const targets: PlannedTarget[] = [];
    if (p.createFolder) targets.push({ path: p.createFolder, fingerprint: null });
    targets.push({ path: p.zipPath, fingerprint: p.existing });
    const plan: Plan = { targets, preview: renderPreview(p, ctx.lang) };
    planFacts.set(plan, { zip: displayOf(ctx.files, p.zipPath), files: p.members.length, bytes: p.totalBytes, replaces: p.existing !== null });
    return plan;
  },

  summarize(args, plan) {
    const f = planFacts.get(plan);
    if (!f) return text(`${specText(args.from)}을(를) '${args.to}' 파일로 압축합니다`, `Compresses ${specText(args.from)} into '${args.to}'`);
    return f.replaces
      ? text(`파일 ${f.files}개(${humanSize(f.bytes)})를 압축해 '${f.zip}' 파일을 새로 바꿉니다`, `Compresses ${f.files} files (${humanSize(f.bytes)}), replacing '${f.zip}'`)
      : text(`파일 ${f.files}개(${humanSize(f.bytes)})를 '${f.zip}' 파일로 압축합니다`, `Compresses ${f.files} files (${humanSize(f.bytes)}) into '${f.zip}'`);
  },

  async execute(args, ctx) {
    const { files, lang, signal } = ctx;
    const p = await prepare(args, ctx);
    if (isFailure(p)) return fail(lang, p.failure, undefined, 'refused');
    const approvedDigest = /\[files ([0-9a-f]{32})\]\s*$/.exec(ctx.plan.preview ?? '')?.[1];
    if (approvedDigest === undefined || approvedDigest !== p.digest) return fail(lang, changed(), undefined, 'refused');
    const shown = displayOf(files, p.zipPath);
    const stopped = () => fail(lang, text(`사용자가 중지해서 '${shown}' 파일을 만들지 않았습니다.`, `Stopped by the user; '${shown}' was not created.`), { cancelled: true }, 'cancelled');
    try {
      const lib = await yazl();
      const zip = new lib.ZipFile();
      const out: Buffer[] = [];
      let outBytes = 0;
      const collected = new Promise<void>((resolve, reject) => {
        zip.outputStream.on('data', (chunk: Buffer) => {
          out.push(chunk);
          outBytes += chunk.length;
        });
        zip.outputStream.on('end', resolve);
        zip.outputStream.on('error', reject);
      });
      for (const m of p.members) {
        const bytes = await readWhole(files, m, signal);
        if (bytes === null) return stopped();
        if (bytes === 'changed') return fail(lang, changed(), { changed: m.name }, 'refused');
        const info = await files.stat(m.path);
        // yazl writes every name as UTF-8 with general purpose bit 11 set.
        zip.addBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), m.name, {
          mtime: new Date(info?.mtimeMs ?? Date.now()),
          compress: !STORED.test(m.name),
        });
      }
      zip.end();
      await collected;
      if (signal.aborted) return stopped();
      for (const t of ctx.plan.targets) if (!samePath(t.path, p.zipPath)) await files.mkdir(t.path);
      await files.writeAtomic(p.zipPath, Buffer.concat(out, outBytes), { overwrite: p.existing !== null });
      return {
        outcome: 'ok',
        text: pick(
          text(
            `'${shown}' 파일을 ${p.existing ? '새로 만들어 바꿨습니다' : '만들었습니다'}: 파일 ${p.members.length}개, ${humanSize(p.totalBytes)} → ${humanSize(outBytes)}.`,
            `${p.existing ? 'Replaced' : 'Created'} '${shown}': ${p.members.length} ${p.members.length === 1 ? 'file' : 'files'}, ${humanSize(p.totalBytes)} → ${humanSize(outBytes)}.`,
          ),
          lang,
        ),
        details: { zip: shown, files: p.members.length, bytes: p.totalBytes, zipBytes: outBytes, names: p.members.map((m) => m.name) },
      };
    } catch (e) {
      if (!isFileAccessError(e)) throw e;
      return fail(lang, explainFileError(e, files));
    }
  },
});
