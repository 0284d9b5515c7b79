import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { isFileAccessError } from '../../electron/common/file-access';
import { pick, text, type Lang, type Text } from '../../electron/common/i18n';
import { defineTool, failure, isFailure, type Failure, type Plan, type PlannedTarget, type ReadOnlyFileAccess } from '../kit/define-tool';
import { cappedLines, humanSize } from '../kit/format';
import { baseName, joinPath, parentPath } from '../kit/paths';
import { fail } from '../kit/results';
import { attempt, checkExisting, displayOf, emptyPathText, explainFileError, notRegularFile, refuseWildcardName, refusal } from '../kit/targets';
import { checkEntryName, collidingEntriesText, collisionKey, refusedEntryText, shownName } from './entry-names';
import { MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_RATIO, MAX_TOTAL_BYTES, RATIO_MIN_BYTES } from './limits';
import { openArchive, readEntryBytes, type ArchiveEntry, type OpenArchive } from './zip-reader';

const input = Type.Object(
  {
    path: Type.String({ description: 'The .zip to extract (e.g. "첨부/자료.zip").' }),
    to: Type.Optional(Type.String({ description: 'Folder to extract into (default: beside the zip, named after it).' })),
  },
  { additionalProperties: false },
);

interface Args {
  path: string;
  to?: string | undefined;
}

/** One file or folder the extraction creates. */
interface Planned {
  readonly path: string;
  /** null: a folder. */
  readonly item: ArchiveEntry | null;
}

interface Prepared {
  readonly zipPath: string;
  readonly destination: string;
  readonly folders: readonly string[];
  readonly files: readonly Planned[];
  readonly totalBytes: number;
  /** Binds the approval to this zip as it is now: its identity and its whole directory. */
  readonly digest: string;
}

/** What summarize needs that targets alone do not say (file vs. folder, sizes); keyed by the plan object. */
const planFacts = new WeakMap<Plan, { readonly zip: string; readonly destination: string; readonly files: number; readonly bytes: number }>();

function notZip(path: string): Failure {
  return failure(
    text(
      `'${path}'은(는) zip 압축 파일이 아니거나 손상되었습니다. zip 파일만 풀 수 있습니다 (7z, rar, alz, egg는 안 됩니다).`,
      `'${path}' is not a zip file, or it is damaged. Only zip files can be extracted (not 7z, rar, alz or egg).`,
    ),
  );
}

function entryRefusal(item: ArchiveEntry, reason: Text): Failure {
  return failure(refusedEntryText(item.name ?? `(${item.rawName.length} bytes)`, reason));
}

/** Everything about one entry that refuses the whole zip, judged from the directory before any byte is inflated. */
function judgeEntry(item: ArchiveEntry): Failure | null {
  if (item.name === null) return entryRefusal(item, text('이름이 UTF-8이라고 표시되었지만 UTF-8이 아니어서', 'its name is marked UTF-8 but is not'));
  const name = item.name;
  if (item.encrypted) {
    return failure(
      text(
        `압축 파일 안의 '${shownName(name)}' 항목은 암호가 걸려 있어 풀 수 없습니다. 압축 프로그램에서 암호를 넣어 직접 풀거나, 암호 없는 압축 파일을 다시 받으세요.`,
        `The entry '${shownName(name)}' in the zip is encrypted (password-protected) and cannot be extracted. Extract it yourself with the password in a zip program, or get a copy without a password.`,
      ),
    );
  }
  if (item.kind === 'symlink') return entryRefusal(item, text('심볼릭 링크(바로 가기)라서', 'it is a symbolic link'));
  if (item.kind === 'other') return entryRefusal(item, text('일반 파일이나 폴더가 아니라서(장치, FIFO 등)', 'it is neither a file nor a folder (a device, FIFO …)'));
  if (item.kind === 'file' && item.method !== 0 && item.method !== 8) {
    return entryRefusal(item, text(`지원하지 않는 압축 방식(${item.method})이라서`, `it uses an unsupported compression method (${item.method})`));
  }
  if (item.size > MAX_ENTRY_BYTES) {
    return entryRefusal(item, text(`풀면 ${humanSize(item.size)}로 한 파일 한도 ${humanSize(MAX_ENTRY_BYTES)}를 넘어서`, `it would be ${humanSize(item.size)}, over the ${humanSize(MAX_ENTRY_BYTES)} limit for one file`));
  }
  if (item.size >= RATIO_MIN_BYTES && item.size / Math.max(1, item.compressedSize) > MAX_RATIO) {
    return entryRefusal(
      item,
      text(
        `압축률이 ${MAX_RATIO}배를 넘어(${humanSize(item.compressedSize)} → ${humanSize(item.size)}) 압축 폭탄일 수 있어서`,
        `its compression ratio is over ${MAX_RATIO}× (${humanSize(item.compressedSize)} → ${humanSize(item.size)}), as in a zip bomb`,
      ),
    );
  }
  return null;
}

/** "1 file", "3 files". */
const files_ = (n: number): string => `${n} ${n === 1 ? 'file' : 'files'}`;

function defaultDestination(zipPath: string): string {
  const name = baseName(zipPath);
  const stem = name.replace(/\.zip$/i, '');
  return joinPath(parentPath(zipPath), stem === name || stem === '' ? `${name}-풀림` : stem);
}

async function digestOf(files: ReadOnlyFileAccess, zipPath: string, entries: readonly ArchiveEntry[]): Promise<string> {
  const fp = await files.fingerprint(zipPath);
  const hash = createHash('sha256').update(JSON.stringify(fp));
  for (const e of entries) {
    hash.update(`${Buffer.from(e.rawName).toString('hex')}:${e.size}:${e.compressedSize}:${e.entry.crc32}:${e.entry.relativeOffsetOfLocalHeader};`);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Everything an extraction does, computed from the arguments and the zip as it is now. The plan
 * calls it; execution opens the zip again and must find the same digest, so what runs is what was
 * approved (the gate re-checks every planned target's "does not exist yet").
 */
async function prepare(args: Args, files: ReadOnlyFileAccess): Promise<{ prepared: Prepared; archive: OpenArchive } | Failure> {
  if (args.path.trim() === '') return failure(emptyPathText('path'));
  const info = await attempt(files, () => files.stat(args.path));
  if (info === null) return refusal('NOT_FOUND', args.path, files);
  if ('failure' in info) return info;
  if (info.type === 'directory') return refusal('IS_DIRECTORY', args.path, files);
  if (info.type !== 'file') return notRegularFile(args.path);
  const zipPath = info.path;

  const opened = await attempt(files, () => openArchive(files, zipPath, info.size, MAX_ENTRIES));
  if (isFailure(opened)) return opened;
  if ('problem' in opened) {
    if (opened.problem === 'too-many') {
      return failure(
        text(
          `'${args.path}'에 항목이 ${opened.count}개 있어 한 번에 풀 수 있는 ${MAX_ENTRIES}개를 넘습니다. 압축 프로그램으로 직접 풀거나, 나누어 압축한 파일을 받으세요.`,
          `'${args.path}' holds ${opened.count} entries, more than the ${MAX_ENTRIES} one extraction may create. Extract it with a zip program yourself, or get it split into smaller zips.`,
        ),
      );
    }
    return notZip(args.path);
  }
  const closing = (f: Failure) => {
    opened.close();
    return f;
  };

  let total = 0;
  const seen = new Map<string, { name: string; directory: boolean }>();
  const entryParts: { item: ArchiveEntry; parts: readonly string[]; directory: boolean }[] = [];
  for (const item of opened.entries) {
    const bad = judgeEntry(item);
    if (bad) return closing(bad);
    const checked = checkEntryName(item.name!);
    if ('refused' in checked) return closing(entryRefusal(item, checked.refused));
    const directory = checked.directory || item.kind === 'directory';
    if (directory && item.size > 0) return closing(entryRefusal(item, text('폴더인데 내용이 있어서', 'it is a folder with content')));
    total += item.size;
    if (total > MAX_TOTAL_BYTES) {
      return closing(
        failure(
          text(
            `'${args.path}'을(를) 풀면 ${humanSize(MAX_TOTAL_BYTES)}를 넘습니다. 압축 프로그램으로 직접 풀거나, 나누어 압축한 파일을 받으세요.`,
            `Extracting '${args.path}' would produce more than ${humanSize(MAX_TOTAL_BYTES)}. Extract it with a zip program yourself, or get it split into smaller zips.`,
          ),
        ),
      );
    }
    // Every folder above an entry is created too, so it collides like an entry of its own.
    for (let depth = 1; depth <= checked.parts.length; depth++) {
      const isSelf = depth === checked.parts.length;
      const key = collisionKey(checked.parts.slice(0, depth));
      const asDirectory = !isSelf || directory;
      const shown = checked.parts.slice(0, depth).join('/');
      const before = seen.get(key);
      if (before === undefined) {
        seen.set(key, { name: isSelf ? item.name! : `${shown}/`, directory: asDirectory });
      } else if (!(before.directory && asDirectory)) {
        // Two files on one name, or a file where a folder is needed: which one wins depends on order.
        return closing(failure(collidingEntriesText(before.name, isSelf ? item.name! : `${shown}/`)));
      }
    }
    entryParts.push({ item, parts: checked.parts, directory });
  }

  // The destination: given, or a new folder beside the zip named after it.
  if (args.to !== undefined && args.to.trim() !== '') {
    const wildcard = refuseWildcardName(args.to, 'to');
    if (wildcard) return closing(wildcard);
  }
  const destGiven = args.to !== undefined && args.to.trim() !== '' ? args.to : defaultDestination(zipPath);
  const checkedDest = await attempt(files, () => files.check(destGiven));
  if (typeof checkedDest !== 'string') return closing(checkedDest);
  const destInfo = await attempt(files, () => files.stat(destGiven));
  if (destInfo !== null && 'failure' in destInfo) return closing(destInfo);
  if (destInfo !== null && destInfo.type !== 'directory') return closing(refusal('NOT_DIRECTORY', displayOf(files, destInfo.path)));
  const destination = destInfo?.path ?? files.resolve(destGiven);

  // Folders to create, parents first, and the files; a name taken on disk refuses the whole plan.
  const folders: string[] = [];
  const folderSet = new Set<string>();
  const existingFolders = new Set<string>();
  if (destInfo === null) {
    folders.push(destination);
    folderSet.add(destination);
  } else existingFolders.add(destination);
  const taken: string[] = [];
  const planned: Planned[] = [];
  const exists = async (path: string, wantDirectory: boolean): Promise<boolean | Failure> => {
    const parent = parentPath(path);
    // Below a folder the plan creates nothing exists yet: no need to ask the disk.
    if (folderSet.has(parent)) return false;
    const st = await attempt(files, () => files.stat(path));
    if (st === null) return false;
    if ('failure' in st) return st;
    if (wantDirectory && st.type === 'directory') return true;
    taken.push(displayOf(files, st.path));
    return true;
  };
  for (const { item, parts, directory } of entryParts) {
    let folder = destination;
    const folderParts = directory ? parts : parts.slice(0, -1);
    for (const part of folderParts) {
      folder = joinPath(folder, part);
      if (folderSet.has(folder) || existingFolders.has(folder)) continue;
      const there = await exists(folder, true);
      if (isFailure(there)) return closing(there);
      if (!there) {
        folders.push(folder);
        folderSet.add(folder);
      } else existingFolders.add(folder);
    }
    if (directory) continue;
    const path = joinPath(destination, parts.join('/'));
    const there = await exists(path, false);
    if (isFailure(there)) return closing(there);
    planned.push({ path, item });
  }
  if (taken.length > 0) {
    const shown = taken.slice(0, 5).join(', ') + (taken.length > 5 ? ` … (+${taken.length - 5})` : '');
    return closing(
      failure(
        text(
          `풀 자리에 같은 이름이 이미 있습니다: ${shown}. 기존 파일은 덮어쓰지 않으니 to에 새 폴더 이름을 주세요 (예: "${displayOf(files, destination)}-2").`,
          `These names already exist where the zip would be extracted: ${shown}. Existing files are never overwritten; give a new folder name in to (e.g. "${displayOf(files, destination)}-2").`,
        ),
      ),
    );
  }
  const digest = await digestOf(files, zipPath, opened.entries);
  return { prepared: { zipPath, destination, folders, files: planned, totalBytes: total, digest }, archive: opened };
}

function digestLine(digest: string): string {
  return `[zip ${digest}]`;
}

function renderPreview(p: Prepared, files: ReadOnlyFileAccess, lang: Lang): string {
  const lines = [
    pick(text(`'${displayOf(files, p.destination)}'에 만들 파일 ${p.files.length}개 (${humanSize(p.totalBytes)}):`, `${files_(p.files.length)} (${humanSize(p.totalBytes)}) to create in '${displayOf(files, p.destination)}':`), lang),
    ...p.files.map((f) => `- ${displayOf(files, f.path)} (${humanSize(f.item!.size)})`),
    digestLine(p.digest),
  ];
  return lines.join('\n');
}

function changedSinceApproval(path: string): Text {
  return text(
    `'${path}'이(가) 승인 뒤에 바뀌어 풀지 않았습니다. 같은 요청을 다시 하면 새 내용으로 승인을 받습니다.`,
    `'${path}' changed after it was approved, so nothing was extracted. Repeat the request to approve its current content.`,
  );
}

export const archiveUnzip = defineTool({
  name: 'archive.unzip',
  description: {
    ko: 'zip 파일을 풉니다(기본: zip 옆에 같은 이름의 새 폴더). 있는 파일은 덮어쓰지 않습니다.',
    en: 'Extract a .zip file (default: into a new folder named after it). Never overwrites files.',
  },
  keywords: ['압축 풀기', '압축 풀어줘', '풀어줘', '압축 해제', '해제', '첨부파일', 'zip', 'unzip', 'extract', 'decompress', 'unpack'],
  input,
  risk: 'write',
  subject: { kind: 'PATH', fields: ['path', 'to'] },
  concurrency: 'exclusive',
  capabilities: ['files'],

  async precheck(args, ctx) {
    const refused = await checkExisting(args.path, 'path', ctx, 'file');
    if (refused) return refused;
    return args.to !== undefined && args.to.trim() !== '' ? refuseWildcardName(args.to, 'to') : null;
  },

  async plan(args, ctx): Promise<Plan | Failure> {
    const done = await prepare(args, ctx.files);
    if (isFailure(done)) return done;
    done.archive.close();
    const p = done.prepared;
    const targets: PlannedTarget[] = [...p.folders.map((path) => ({ path, fingerprint: null })), ...p.files.map((f) => ({ path: f.path, fingerprint: null }))];
    const plan: Plan = { targets, preview: renderPreview(p, ctx.files, ctx.lang) };
    planFacts.set(plan, { zip: displayOf(ctx.files, p.zipPath), destination: displayOf(ctx.files, p.destination), files: p.files.length, bytes: p.totalBytes });
    return plan;
  },

  summarize(args, plan) {
    const facts = planFacts.get(plan);
    if (!facts) return text(`'${args.path}' 파일을 풀어 ${plan.targets.length}개 항목을 만듭니다`, `Extracts '${args.path}', creating ${plan.targets.length} entries`);
    return text(
      `${facts.zip}의 파일 ${facts.files}개(${humanSize(facts.bytes)})를 ${facts.destination}/에 풉니다`,
      `Extracts ${files_(facts.files)} (${humanSize(facts.bytes)}) from ${facts.zip} into ${facts.destination}/`,
    );
  },

  async execute(args, ctx) {
    const { files, lang, signal } = ctx;
    const done = await prepareForRun(args, ctx);
    if (isFailure(done)) return fail(lang, done.failure, undefined, 'refused');
    const { prepared: p, archive } = done;
    const approved = new Set(ctx.plan.targets.map((t) => files.resolve(t.path)));
    const written: string[] = [];
    const skipped: string[] = [];
    let bytes = 0;
    const shownZip = displayOf(files, p.zipPath);
    const shownDest = displayOf(files, p.destination);
    const finish = (headline: Text, outcome: 'ok' | 'error' | 'cancelled', extra: Text[] = []) => {
      archive.close();
      const lines = [pick(headline, lang), ...extra.map((t) => pick(t, lang)), ...cappedLines(skipped.map((s) => `- ${s}`), lang, 20)];
      return { outcome, text: lines.join('\n'), details: { zip: shownZip, to: shownDest, written: written.length, bytes, files: written, ...(skipped.length ? { skipped } : {}) } };
    };
    try {
      for (const folder of p.folders) {
        if (!approved.has(files.resolve(folder))) continue;
        await files.mkdir(folder);
      }
      for (const f of p.files) {
        if (signal.aborted) break;
        if (!approved.has(files.resolve(f.path))) {
          skipped.push(displayOf(files, f.path));
          continue;
        }
        const read = await readEntryBytes(archive, f.item!, MAX_ENTRY_BYTES, signal);
        if (read.kind === 'cancelled') break;
        if (read.kind === 'too-large') {
          return finish(
            text(
              `'${shownZip}' 안의 '${shownName(f.item!.name!)}'이(가) 밝힌 크기(${humanSize(f.item!.size)})보다 크게 풀려 중단했습니다. 크기를 속인 압축 폭탄일 수 있으니 이 파일을 더 풀지 마세요. 그 항목은 만들지 않았고, 앞서 푼 ${written.length}개만 '${shownDest}'에 있습니다.`,
              `'${shownName(f.item!.name!)}' in '${shownZip}' inflates beyond its declared ${humanSize(f.item!.size)}, so extraction stopped: it may be a zip bomb lying about its size, do not extract it again. That entry was not created; only the ${written.length} files before it are in '${shownDest}'.`,
            ),
            'error',
          );
        }
        if (read.kind === 'damaged') {
          return finish(
            text(
              `'${shownZip}' 안의 '${shownName(f.item!.name!)}'이(가) 손상되어 중단했습니다 (CRC나 압축 데이터 오류). 그 항목은 만들지 않았고, 앞서 푼 ${written.length}개만 '${shownDest}'에 있습니다. 압축 파일을 다시 받으세요.`,
              `'${shownName(f.item!.name!)}' in '${shownZip}' is damaged (bad compressed data or CRC), so extraction stopped. That entry was not created; only the ${written.length} files before it are in '${shownDest}'. Get the zip again.`,
            ),
            'error',
          );
        }
        try {
          // Written whole to a temp file and renamed (host), never over an existing file.
          await files.writeAtomic(f.path, read.bytes, { overwrite: false });
          written.push(displayOf(files, f.path));
          bytes += read.bytes.length;
        } catch (e) {
          if (!isFileAccessError(e)) throw e;
          skipped.push(pick(explainFileError(e, files), lang));
        }
      }
    } catch (e) {
      archive.close();
      if (!isFileAccessError(e)) throw e;
      return fail(lang, explainFileError(e, files));
    }
    if (signal.aborted) {
      const left = p.files.length - written.length - skipped.length;
      return finish(
        text(
          `사용자가 중지했습니다. '${shownDest}'에 ${written.length}개를 풀었고 나머지 ${left}개는 만들지 않았습니다 (풀던 파일도 남기지 않았습니다).`,
          `Stopped by the user. ${files_(written.length)} extracted to '${shownDest}'; the other ${left} were not created (nor was the one in progress).`,
        ),
        'cancelled',
      );
    }
    const headline = text(
      `'${shownZip}' 파일을 풀었습니다: 파일 ${written.length}개(${humanSize(bytes)}) → '${shownDest}/'.`,
      `Extracted '${shownZip}': ${files_(written.length)} (${humanSize(bytes)}) into '${shownDest}/'.`,
    );
    const extra = skipped.length > 0 ? [text(`만들지 못한 것 ${skipped.length}개:`, `Not created (${skipped.length}):`)] : [];
    return finish(headline, written.length === 0 && skipped.length > 0 ? 'error' : 'ok', extra);
  },
});

/** Execution's own look at the zip: it must be the one approved (same digest), else nothing runs. */
async function prepareForRun(args: Args, ctx: { readonly files: ReadOnlyFileAccess; readonly plan: Plan }): Promise<{ prepared: Prepared; archive: OpenArchive } | Failure> {
  const approvedDigest = /\[zip ([0-9a-f]{32})\]\s*$/.exec(ctx.plan.preview ?? '')?.[1];
  const opened = await prepare(args, ctx.files);
  if (isFailure(opened)) return opened;
  if (approvedDigest === undefined || opened.prepared.digest !== approvedDigest) {
    opened.archive.close();
    return failure(changedSinceApproval(args.path));
  }
  return opened;
}
