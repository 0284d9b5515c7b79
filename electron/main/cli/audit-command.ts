import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { withAuditWriter } from '../runtime/audit-writer';
import {
  backupLedger,
  backupMarker,
  CheckpointFormatError,
  readJsonlExport,
  rowsAround,
  checkSegmentIndexes,
  EXPORT_FORMATS,
  eventFields,
  eventSummary,
  exportLedger,
  listSegments,
  localCheckpoints,
  parseCheckpoint,
  parseVerificationKey,
  qrTerminalText,
  readLedgerRows,
  sealKeyPath,
  takeCheckpoint,
  verifyExportFile,
  verifyLedger,
  type Checkpoint,
  type ExportFormat,
  type LedgerVerdict,
  type StoredEventBody,
  type LedgerRow,
  type VerifyOptions,
} from '../audit';
import { auditDir } from '../runtime/session';
import { defaultDataDir } from '../runtime/paths';
import { isLang, text, type Text } from '../../common/i18n';
import { flagString, flagStrings, parseArgs, UsageError, type ParsedArgs } from './args';
import { describeIndexProblems, describeVerdict } from './audit-verdict';
import { KEY_ABSENT, say, type AuditLang } from './audit-words';

const CHECKPOINT_GUIDANCE = text(
  "위 체크포인트를 인쇄하거나 사진(QR 코드)으로 찍어 이 컴퓨터 밖에 보관하세요. 'baram audit checkpoint > 파일'로 저장한 파일은 'baram audit verify --checkpoint 파일'로 그대로 검증에 씁니다.",
  "Print or photograph (QR code) the checkpoint above and keep it off this machine. A file saved with 'baram audit checkpoint > FILE' is read as it is by 'baram audit verify --checkpoint FILE'.",
);

const BACKUP_KEY_LEFT_OUT = text(
  '봉인 키는 일부러 넣지 않았습니다: 이 백업은 보안 담당자가 보관한 검증 키로 검증하세요(baram audit verify --data-dir 백업폴더 --key …).',
  'The sealing key was left out on purpose: verify this backup with the verification key security staff keep (baram audit verify --data-dir BACKUP --key …).',
);

/**
 * `baram audit verify|export|checkpoint|tail|backup|init` (SPEC §3, §7) — for security staff and
 * administrators. Exit 0 when the answer is "fine", 1 when verification fails or the work could not
 * be done, 2 for usage errors (main.ts).
 */
export async function auditCommand(rest: readonly string[], out: NodeJS.WritableStream, productVersion: string): Promise<number> {
  const [sub, ...args] = rest;
  switch (sub) {
    case 'verify':
      return verifyCommand(args, out);
    case 'export':
      return exportCommand(args, out, productVersion);
    case 'checkpoint':
      return checkpointCommand(args, out, process.stderr);
    case 'tail':
      return tailCommand(args, out);
    case 'backup':
      return backupCommand(args, out);
    case 'init':
      return initCommand(args, out);
    default:
      throw new UsageError(`Unknown audit command '${sub ?? ''}'. Use: baram audit verify|export|checkpoint|tail|backup|init`);
  }
}

function ledgerDirOf(dataDir: string | undefined): string {
  return auditDir(dataDir ?? defaultDataDir());
}

function requireRecords(dir: string): void {
  if (listSegments(dir).length === 0) {
    throw new UsageError(`${dir}에 감사 기록이 없습니다. --data-dir 로 바람의 데이터 폴더를 주세요. / No audit records in ${dir}; pass Baram's data folder with --data-dir.`);
  }
}

const withLedger = withAuditWriter;

async function verifyCommand(rest: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(rest, ['data-dir', 'key', 'checkpoint', 'file', 'lang'], ['json']);
  const lang = auditLang(args);
  const options: VerifyOptions = {
    ...keyOption(flagString(args, 'key')),
    checkpoints: flagStrings(args, 'checkpoint').map((file) => readCheckpointFile(file, lang)),
  };
  const exportFile = flagString(args, 'file');
  let verdict: LedgerVerdict;
  let subject: string;
  let rows: () => Iterable<LedgerRow>;
  let indexProblems: string[] = [];
  let local = 0;
  const notes: Text[] = [];
  if (exportFile !== undefined) {
    if (!existsSync(exportFile)) throw new UsageError(`${exportFile} 파일이 없습니다. / ${exportFile} does not exist.`);
    verdict = verifyExportFile(exportFile, options).verdict;
    subject = exportFile;
    rows = () => readJsonlExport(exportFile).rows;
  } else {
    const dir = ledgerDirOf(flagString(args, 'data-dir'));
    requireRecords(dir);
    verdict = verifyLedger(dir, options);
    local = localCheckpoints(dir).length;
    indexProblems = damagedIndexes(dir);
    subject = dir;
    rows = () => readLedgerRows(dir);
    // Without its sealing key a folder is a backup or a copy (or its key was lost): Baram never
    // writes there, so the verification is not recorded, and the report says which it is.
    if (existsSync(sealKeyPath(dir))) await recordVerification(dir, verdict, options, indexProblems);
    else notes.push(keyAbsentNote(dir));
  }
  const around = verdict.ok ? undefined : rowsAround(rows, verdict.firstBadSeq);
  out.write(
    args.flags.has('json')
      ? `${JSON.stringify({ subject, ...verdict, ...(around ? { around } : {}), indexProblems }, null, 2)}\n`
      : describeVerdict(verdict, { subject, options, localCheckpoints: local, ...(around ? { around } : {}), notes }, lang) + describeIndexProblems(indexProblems, lang),
  );
  if (!verdict.ok || indexProblems.length > 0) return 1;
  // A checkpoint given with a typing slip was not checked: the auditor's input needs fixing (usage).
  return (verdict.mistypedCheckpoints?.length ?? 0) > 0 ? 2 : 0;
}

/** export, checkpoint and backup write to the ledger: a folder without its key (a backup) is refused in plain words. */
function requireSealKey(dir: string, lang: AuditLang): void {
  if (existsSync(sealKeyPath(dir))) return;
  const marker = backupMarker(dir);
  throw new UsageError(say(marker ? KEY_ABSENT.backupReadOnly(marker.madeAt, marker.from) : KEY_ABSENT.unknownReadOnly(dir), lang));
}

function keyAbsentNote(dir: string): Text {
  const marker = backupMarker(dir);
  return marker ? KEY_ABSENT.backup(marker.madeAt, marker.from) : KEY_ABSENT.unknown(dir);
}

/** --lang ko|en; undefined (both languages) when not given. */
function auditLang(args: ParsedArgs): AuditLang {
  const value = flagString(args, 'lang');
  if (value === undefined) return undefined;
  if (!isLang(value)) throw new UsageError(`--lang 은 ko 또는 en 입니다 (받은 값 '${value}'). / --lang must be ko or en (was '${value}').`);
  return value;
}

/**
 * The viewer's indexes are not covered by the hash chain: a forged index could hide rows from a
 * filtered view while every row still verifies. integrity_check recomputes them from the rows.
 */
function damagedIndexes(dir: string): string[] {
  return listSegments(dir).flatMap((segment) => {
    const check = checkSegmentIndexes(segment.file);
    return check.ok ? [] : check.problems.map((problem) => `${basename(segment.file)}: ${problem}`);
  });
}

/** The verification is itself an event (SPEC §3); a ledger too damaged to write to still gets its answer. */
async function recordVerification(dir: string, verdict: LedgerVerdict, options: VerifyOptions, indexProblems: readonly string[]): Promise<void> {
  try {
    await withLedger(dir, (ledger) =>
      ledger.append({
        type: 'audit.verify',
        actionClass: '조회',
        outcome: verdict.ok && indexProblems.length === 0 ? 'ok' : 'error',
        data: { ...verdict, indexProblems, keyGiven: options.key !== undefined, checkpointsGiven: options.checkpoints?.length ?? 0 },
      }),
    );
  } catch (error) {
    process.stderr.write(`baram: 이번 검증을 감사 기록에 남기지 못했습니다 / could not record this verification: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function keyOption(text: string | undefined): Pick<VerifyOptions, 'key'> {
  if (text === undefined) return {};
  try {
    return { key: parseVerificationKey(text) };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function readCheckpointFile(file: string, lang: AuditLang): Checkpoint {
  if (!existsSync(file)) throw new UsageError(`체크포인트 파일 ${file}이 없습니다. / Checkpoint file ${file} does not exist.`);
  try {
    return parseCheckpoint(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof CheckpointFormatError) throw new UsageError(`${file}: ${say(error.text, lang)}`);
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function exportCommand(rest: readonly string[], out: NodeJS.WritableStream, productVersion: string): Promise<number> {
  const args = parseArgs(rest, ['data-dir', 'format', 'out', 'from', 'to', 'lang'], []);
  const lang = auditLang(args);
  const format = flagString(args, 'format') ?? 'jsonl';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (was '${format}').`);
  const file = flagString(args, 'out');
  if (!file) throw new UsageError('--out FILE is required: where to write the export.');
  const from = dateFlag(flagString(args, 'from'), '--from');
  const to = dateFlag(flagString(args, 'to'), '--to');
  if (from && to && from >= to) throw new UsageError('--from must be before --to.');
  const dir = ledgerDirOf(flagString(args, 'data-dir'));
  requireRecords(dir);
  requireSealKey(dir, lang);
  const summary = await withLedger(dir, (ledger, who) =>
    exportLedger(ledger, { format: format as ExportFormat, out: file, ...(from ? { from } : {}), ...(to ? { to } : {}), hostId: who.hostId, productVersion, now: new Date(), lang: lang ?? 'ko' }),
  );
  out.write(
    `${say(text('내보냄', 'Exported'), lang)}: ${summary.file}\n` +
      `  ${say(text('기록 수', 'rows'), lang)}: ${summary.rows} (seq ${summary.fromSeq}–${summary.toSeq}), SHA-256 ${summary.sha256}\n` +
      `  ${say(text('포함된 체크포인트', 'embedded checkpoint'), lang)}:\n${indent(summary.checkpoint)}`,
  );
  return 0;
}

/** `2026-12-01` is local midnight (what an office means by a date); anything else is ISO 8601. */
function dateFlag(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00` : value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`${name} must be a date like 2026-12-01 or 2026-12-01T09:00+09:00 (was '${value}').`);
  return date;
}

async function checkpointCommand(rest: readonly string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(rest, ['data-dir', 'lang'], ['no-qr']);
  const lang = auditLang(args);
  const dir = ledgerDirOf(flagString(args, 'data-dir'));
  requireRecords(dir);
  requireSealKey(dir, lang);
  const taken = await withLedger(dir, (ledger, who) => takeCheckpoint(ledger, who.hostId, new Date()));
  // stdout is the checkpoint alone, so `baram audit checkpoint > saved.txt` saves exactly what
  // `verify --checkpoint saved.txt` reads; guidance and the QR code are for the person (stderr).
  out.write(taken.text);
  err.write(`\n${say(CHECKPOINT_GUIDANCE, lang)}\n${say([text('파일', 'file'), `: ${taken.file}`], lang)}\n${args.flags.has('no-qr') ? '' : `${qrTerminalText(taken.text)}\n`}`);
  return 0;
}

async function tailCommand(rest: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(rest, ['data-dir', 'lines'], ['follow']);
  const lines = Number(flagString(args, 'lines') ?? '20');
  if (!Number.isInteger(lines) || lines < 1 || lines > 10_000) throw new UsageError('--lines must be a whole number from 1 to 10000.');
  const dir = ledgerDirOf(flagString(args, 'data-dir'));
  requireRecords(dir);
  let last = 0;
  const recent: string[] = [];
  for (const row of readLedgerRows(dir)) {
    recent.push(tailLine(row.body));
    if (recent.length > lines) recent.shift();
    last = row.seq;
  }
  out.write(recent.map((l) => `${l}\n`).join(''));
  if (!args.flags.has('follow')) return 0;
  // Poll: the ledger may be written by another process (the desktop app); Ctrl+C ends.
  await new Promise<void>((resolvePromise) => {
    const timer = setInterval(() => {
      for (const row of readLedgerRows(dir, last + 1)) {
        out.write(`${tailLine(row.body)}\n`);
        last = row.seq;
      }
    }, 500);
    process.once('SIGINT', () => {
      clearInterval(timer);
      resolvePromise();
    });
  });
  return 0;
}

function tailLine(body: string): string {
  const fields = eventFields(JSON.parse(body) as StoredEventBody);
  return `${fields.seq.padStart(7)}  ${fields.localTime}  ${fields.osUser}  ${eventSummary(fields)}`;
}

async function backupCommand(rest: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(rest, ['data-dir', 'out', 'lang'], []);
  const lang = auditLang(args);
  const target = flagString(args, 'out');
  if (target && existsSync(target) && readdirSync(target).length > 0) {
    throw new UsageError(`${target} 폴더가 비어 있지 않습니다. 새 폴더를 주세요. / ${target} is not empty; give a new or empty folder for the backup.`);
  }
  if (!target) throw new UsageError('--out DIR is required: a new or empty folder for the backup.');
  const dir = ledgerDirOf(flagString(args, 'data-dir'));
  requireRecords(dir);
  requireSealKey(dir, lang);
  // Laid out like a data folder, so `baram audit verify --data-dir BACKUP` checks it as it is.
  const summary = await withLedger(dir, (ledger) => backupLedger(ledger, auditDir(target)));
  out.write(`백업함 / Backed up: ${summary.dir}\n  월별 파일 / segments: ${summary.segments.join(', ')}\n  체크포인트 / checkpoints: ${summary.checkpoints}\n  ${say(BACKUP_KEY_LEFT_OUT, lang)}\n`);
  return 0;
}

async function initCommand(rest: readonly string[], out: NodeJS.WritableStream): Promise<number> {
  const args = parseArgs(rest, ['data-dir'], []);
  const dir = ledgerDirOf(flagString(args, 'data-dir'));
  if (existsSync(sealKeyPath(dir))) {
    throw new UsageError(
      `${dir}의 감사 기록은 이미 설정되어 있습니다. 검증 키는 이 폴더를 처음 설정한 'baram audit init'에서만 한 번 보여 주며 다시 만들 수 없습니다. ` +
        `키 없이 처음 사용되었다면(baram call, 데스크톱 앱) 이 기록의 봉인은 키로 검증할 수 없고, 해시 체인과 체크포인트로만 검증됩니다. ` +
        `검증 키가 필요하면 새 데이터 폴더에서 먼저 'baram audit init --data-dir 새폴더'를 실행하고 바람을 그 폴더로 옮기세요(이 폴더는 증거로 보관). / ` +
        `Auditing in ${dir} is already set up. The verification key is shown only once, by the 'baram audit init' that set the folder up, and cannot be made again. ` +
        `If the folder was first used without it (baram call, the desktop app), nobody holds its key: its seals cannot be checked with a key, only its hash chain and checkpoints. ` +
        `To have a key, run 'baram audit init --data-dir NEW-FOLDER' on a new data folder before anything else uses it, and move Baram to that folder (keep this one as evidence).`,
    );
  }
  const key = await withLedger(dir, async (ledger) => ledger.takeInitialKey());
  if (!key) throw new Error('The new ledger did not hand out its verification key.');
  out.write(verificationKeyNotice(key));
  return 0;
}

/** What the person setting Baram up sees once: the key, what it is for, and where it must go. */
export function verificationKeyNotice(key: string): string {
  return [
    '감사 기록 검증 키 (지금 한 번만 표시됩니다) / Audit verification key (shown only this once):',
    '',
    `  ${key}`,
    '',
    '보안 담당자에게 전달해 이 컴퓨터 밖(금고, 인쇄물)에 보관하세요. 이 키가 있어야 나중에',
    '"baram audit verify --key …"로 기록이 조작되지 않았음을 증명할 수 있습니다.',
    'Give it to security staff to keep off this machine (a safe, a printout). Only with it can',
    '"baram audit verify --key …" later prove that no record was altered.',
    '',
    qrTerminalText(key),
  ].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `    ${line}`))
    .join('\n');
}
