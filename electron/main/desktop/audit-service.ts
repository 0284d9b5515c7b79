import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { text, type Lang, type Text } from '../../common/i18n';
import {
  ipcOk,
  type AuditCheckpointView,
  type AuditExportResult,
  type AuditPage,
  type AuditRowView,
  type AuditVerifyResult,
  type IpcRequest,
  type IpcResult,
  type QrPicture,
} from '../../common/ipc-contract';
import {
  checkPageRequest,
  checkSegmentIndexes,
  eventFields,
  eventTypeLabel,
  exportLedger,
  latestCheckpointText,
  LedgerReader,
  listSegments,
  localCheckpoints,
  qrSvg,
  readLedgerRows,
  rowsAround,
  takeCheckpoint,
  verifyLedgerInTurns,
  type ExportFormat,
  type LedgerVerdict,
  type StoredEventBody,
} from '../audit';
import { describeIndexProblems, describeVerdict } from '../cli/audit-verdict';
import { say, VERIFY } from '../cli/audit-words';
import { withAuditWriter } from '../runtime/audit-writer';
import type { SaveDialog } from './save-dialog';

/**
 * The audit viewer's side in main (issue 17 scope 4): pages of the ledger through the query engine
 * (so the page never holds more than the rows it shows), verification, export through main's save
 * dialog, and the latest checkpoint with its QR code. Everything reuses what `baram audit …` uses
 * (audit/ for the work, cli/audit-verdict for the report's words), so the window and the command
 * line cannot tell an auditor two different things about the same ledger.
 */
export interface AuditServiceOptions {
  /** The ledger folder (<dataDir>/audit). */
  readonly dir: string;
  readonly version: string;
  /** Absent → export answers that no save dialog is available (never a path of main's choosing). */
  readonly saveDialog?: SaveDialog;
}

const EXTENSION: Readonly<Record<ExportFormat, string>> = { csv: 'csv', jsonl: 'jsonl', syslog: 'log', cef: 'cef' };
const FORMAT_NAME: Readonly<Record<ExportFormat, Text>> = {
  csv: text('CSV (엑셀)', 'CSV (Excel)'),
  jsonl: text('JSONL (검증용)', 'JSONL (verifiable)'),
  syslog: text('syslog (RFC 5424)', 'syslog (RFC 5424)'),
  cef: text('CEF (보안 관제)', 'CEF (SIEM)'),
};

export class AuditService {
  private reader: { readonly key: string; readonly reader: LedgerReader } | undefined;

  constructor(private readonly o: AuditServiceOptions) {}

  page(request: IpcRequest<'audit:page'>): IpcResult<AuditPage> {
    // The engine's own check gives the same ko/en answer the CLI and its tests give.
    const check = checkPageRequest(request.filter, { limit: request.limit, beforeSeq: request.beforeSeq });
    if (!check.ok) return ipcOk({ problem: { field: check.problem.field, message: check.problem.message } });
    const reader = this.readerNow();
    if (!reader) return ipcOk({ events: [] });
    const page = reader.page(check.value.filter, { limit: check.value.limit, ...(check.value.beforeSeq !== undefined ? { beforeSeq: check.value.beforeSeq } : {}) });
    return ipcOk({
      events: page.events.map(rowView),
      ...(page.nextBeforeSeq !== undefined ? { nextBeforeSeq: page.nextBeforeSeq } : {}),
      ...(page.scanLimitReached ? { scanLimitReached: true } : {}),
    });
  }

  /**
   * `baram audit verify` on the folder: verdict, the rows around the first bad seq, index check,
   * recorded as audit.verify. The chain is walked in turns (verifyLedgerInTurns) so the window
   * keeps answering while a big ledger is verified.
   */
  async verify(): Promise<IpcResult<AuditVerifyResult>> {
    const dir = this.o.dir;
    const verdict = await verifyLedgerInTurns(dir);
    const indexProblems = listSegments(dir).flatMap((segment) => {
      const check = checkSegmentIndexes(segment.file);
      return check.ok ? [] : check.problems.map((problem) => `${basename(segment.file)}: ${problem}`);
    });
    const around = verdict.ok ? undefined : rowsAround(() => readLedgerRows(dir), verdict.firstBadSeq);
    const context = { subject: dir, options: {}, localCheckpoints: localCheckpoints(dir).length, ...(around ? { around } : {}) };
    const report = (lang: Lang) => describeVerdict(verdict, context, lang) + describeIndexProblems(indexProblems, lang);
    await recordVerification(dir, verdict, indexProblems);
    const result: AuditVerifyResult = {
      ok: verdict.ok && indexProblems.length === 0,
      rows: verdict.ok ? verdict.rows : 0,
      indexProblems,
      report: { ko: report('ko').trimEnd(), en: report('en').trimEnd() },
      ...(verdict.ok ? {} : { firstBadSeq: verdict.firstBadSeq, reason: reasonOf(report('ko'), report('en')) }),
    };
    return ipcOk(result);
  }

  async export(request: IpcRequest<'audit:export'>): Promise<IpcResult<AuditExportResult>> {
    const dialog = this.o.saveDialog;
    if (!dialog) return ipcOk({ saved: false, cancelled: false, problem: NO_DIALOG });
    const from = request.fromTime === undefined ? undefined : new Date(request.fromTime);
    const to = request.toTime === undefined ? undefined : new Date(request.toTime);
    if ((from && Number.isNaN(from.getTime())) || (to && Number.isNaN(to.getTime())) || (from && to && from >= to)) {
      return ipcOk({ saved: false, cancelled: false, problem: BAD_RANGE });
    }
    const now = new Date();
    const file = await dialog.choose({
      title: text('감사 기록 내보내기', 'Export the audit log'),
      defaultName: `baram-audit-${stamp(now)}.${EXTENSION[request.format]}`,
      extension: EXTENSION[request.format],
      filterName: FORMAT_NAME[request.format],
    });
    if (file === null) return ipcOk({ saved: false, cancelled: true });
    // The dialog may have asked "replace?"; an export still never overwrites (export-file.ts).
    if (existsSync(file)) return ipcOk({ saved: false, cancelled: false, problem: exists(file) });
    try {
      const summary = await withAuditWriter(this.o.dir, (ledger, who) =>
        exportLedger(ledger, {
          format: request.format,
          out: file,
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          hostId: who.hostId,
          productVersion: this.o.version,
          now,
          lang: request.lang ?? 'ko',
        }),
      );
      return ipcOk({ saved: true, file: summary.file, rows: summary.rows, fromSeq: summary.fromSeq, toSeq: summary.toSeq, sha256: summary.sha256 });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return ipcOk({ saved: false, cancelled: false, problem: text(`내보내지 못했습니다: ${message}`, `The export failed: ${message}`) });
    }
  }

  /** The latest checkpoint (the daily one the session takes, or a newer one); `take` first takes one now. */
  async checkpoint(request: IpcRequest<'audit:checkpoint'>): Promise<IpcResult<AuditCheckpointView>> {
    if (request.take) await withAuditWriter(this.o.dir, (ledger, who) => takeCheckpoint(ledger, who.hostId, new Date()));
    const latest = latestCheckpointText(this.o.dir);
    if (latest === undefined) return ipcOk({});
    return ipcOk({ text: latest, qr: qrPicture(latest) });
  }

  close(): void {
    this.reader?.reader.close();
    this.reader = undefined;
  }

  /** A reader over the segments there are now: a new month's segment needs a new reader (event-query.ts). */
  private readerNow(): LedgerReader | undefined {
    const files = listSegments(this.o.dir).map((s) => s.file);
    if (files.length === 0) return undefined;
    const key = files.join('\n');
    if (this.reader?.key !== key) {
      this.reader?.reader.close();
      this.reader = { key, reader: LedgerReader.open(files) };
    }
    return this.reader.reader;
  }
}

function rowView(body: StoredEventBody): AuditRowView {
  const f = eventFields(body);
  return {
    seq: body.seq,
    time: f.time,
    localTime: f.localDateTime,
    utcOffset: f.utcOffset,
    type: f.type,
    typeLabel: eventTypeLabel(f.type),
    osUser: f.osUser,
    appUser: f.appUser,
    tool: f.tool,
    target: f.targets[0] ?? '',
    moreTargets: Math.max(0, f.targets.length - 1),
    outcome: f.outcome,
    decision: f.decision,
    callId: f.callId,
    requestId: typeof body.requestId === 'string' ? body.requestId : '',
    event: body as unknown as Readonly<Record<string, unknown>>,
  };
}

/** The report's own reason line (`이유: 내용이 바뀜` / `reason: edited`), so the headline uses the CLI's words. */
function reasonOf(ko: string, en: string): Text | undefined {
  const find = (report: string, lang: Lang) => {
    const prefix = say(VERIFY.reason(text('', '')), lang);
    const line = report.split('\n').map((l) => l.trim()).find((l) => l.startsWith(prefix));
    return line?.slice(prefix.length);
  };
  const k = find(ko, 'ko');
  const e = find(en, 'en');
  return k !== undefined && e !== undefined ? text(k, e) : undefined;
}

/** The verification is itself an event (SPEC §3), as the CLI records it; a ledger too damaged to write to still gets its answer. */
async function recordVerification(dir: string, verdict: LedgerVerdict, indexProblems: readonly string[]): Promise<void> {
  try {
    await withAuditWriter(dir, (ledger) =>
      ledger.append({
        type: 'audit.verify',
        actionClass: '조회',
        outcome: verdict.ok && indexProblems.length === 0 ? 'ok' : 'error',
        data: { ...verdict, indexProblems, keyGiven: false, checkpointsGiven: 0, from: 'desktop' },
      }),
    );
  } catch (error) {
    console.error('[baram:audit] could not record the verification', error);
  }
}

/**
 * qrSvg (what `baram audit checkpoint`'s code is drawn from) as path data: the page draws it as
 * inline SVG, because the CSP allows no data: image. The SVG is ours; anything else is refused.
 */
export function qrPicture(checkpointText: string): QrPicture {
  const svg = qrSvg(checkpointText);
  const size = /viewBox="0 0 (\d+) \1"/.exec(svg)?.[1];
  const path = /<path fill="#000" d="([MhvzZ0-9 -]*)"\/>/.exec(svg)?.[1];
  if (size === undefined || path === undefined) throw new Error('qrSvg changed its output: update qrPicture');
  return { size: Number(size), path };
}

function stamp(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}

const NO_DIALOG = text(
  '이 창에서는 파일을 저장할 수 없습니다(저장 대화 상자가 없음). 명령줄에서 baram audit export --out 파일 로 내보내세요.',
  "This window cannot save files (no save dialog). Export from the command line with 'baram audit export --out FILE'.",
);
const BAD_RANGE = text('시작 시각이 끝 시각보다 앞서야 합니다. 기간을 고친 뒤 다시 내보내세요.', 'The start must be before the end. Fix the time range and export again.');
const exists = (file: string) =>
  text(`${file} 파일이 이미 있습니다. 내보내기는 덮어쓰지 않으니 다른 이름을 고르세요.`, `${file} already exists. Exports never overwrite: choose another name.`);
