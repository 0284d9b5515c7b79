import { eventTypeLabel, type LedgerDamage, type LedgerVerdict, type MistypedCheckpoint, type RowFacts, type RowsAround, type VerifyOptions } from '../audit';
import { text, type Text } from '../../common/i18n';
import { MISTYPED, say, VERIFY, type AuditLang, type Words } from './audit-words';

/** What each kind of damage means to a security officer reading the report. */
const DAMAGE: Readonly<Record<LedgerDamage, Text>> = {
  edited: text('내용이 바뀜', 'edited'),
  missing: text('기록이 빠짐', 'missing'),
  reordered: text('순서가 바뀜', 'reordered'),
  'bad-link': text('앞 기록과의 연결이 끊김', 'bad link'),
  'segment-link': text('월별 파일이 없거나 바뀜', 'broken segment link'),
  'bad-mac': text('봉인(MAC)이 맞지 않음', 'bad MAC'),
  truncated: text('체크포인트 이후 끝부분이 잘림', 'truncated before a checkpoint'),
  rewritten: text('체크포인트와 다르게 다시 계산됨', 'rewritten (differs from a checkpoint)'),
  'bad-checkpoint': text('체크포인트 서명이 맞지 않음', 'checkpoint not signed by this ledger'),
};

const PRESERVE = text(
  "이 컴퓨터의 바람 데이터 폴더를 더 쓰거나 지우지 말고 그대로 두세요. 'baram audit backup --out 새폴더'로 증거 사본을 만들고, 보관해 둔 체크포인트와 내보내기 파일과 비교한 뒤 보안 사고 절차에 따라 보고하세요.",
  "Leave this machine's Baram data folder as it is (do not write to it or delete anything). Make an evidence copy with 'baram audit backup --out NEW-FOLDER', compare it with the checkpoints and exports you kept, and report it under your security incident procedure.",
);
const RESTORE = text(
  "빠진 기록의 내용은 최근 백업이나 내보내기에서 확인하세요('baram audit verify --data-dir 백업폴더' 또는 '--file 내보내기.jsonl').",
  "See what the removed rows held in your latest backup or export ('baram audit verify --data-dir BACKUP' or '--file EXPORT.jsonl').",
);
const EXPORT_COPY = text(
  '내보내기 파일이라면 원래 컴퓨터에서 새로 내보내 받아 비교하세요. 전달 중에 파일이 바뀐 것일 수 있습니다.',
  'If this is an export file, ask for a new export from the original machine and compare: the file may have been changed on its way.',
);

/** What to do next, by what was found. */
const NEXT: Readonly<Record<LedgerDamage, readonly Text[]>> = {
  edited: [PRESERVE],
  reordered: [PRESERVE, EXPORT_COPY],
  'bad-link': [PRESERVE],
  'bad-mac': [PRESERVE],
  rewritten: [PRESERVE],
  missing: [PRESERVE, RESTORE, EXPORT_COPY],
  'segment-link': [PRESERVE, RESTORE],
  truncated: [PRESERVE, RESTORE],
  'bad-checkpoint': [
    text(
      '준 체크포인트를 인쇄물과 한 글자씩 대조하세요. 같다면 이 기록이 만든 체크포인트가 아닙니다(다른 컴퓨터의 것이거나 위조): 어디서 받았는지 확인하고 보고하세요.',
      'Compare the checkpoint you gave with its printout character by character. If they are the same, it was not made by this ledger (another machine’s, or forged): find out where it came from and report it.',
    ),
  ],
};

export interface VerifyReportContext {
  readonly subject: string;
  readonly options: VerifyOptions;
  /** How many checkpoints the data folder holds (verify checks them too; the same one given and found counts once). */
  readonly localCheckpoints: number;
  /** The rows around the first bad seq, for a failed verdict. */
  readonly around?: RowsAround;
  /** Notes about the folder itself (a backup without its key). */
  readonly notes?: readonly Text[];
}

export function describeVerdict(verdict: LedgerVerdict, context: VerifyReportContext, lang: AuditLang): string {
  const lines = verdict.ok ? okLines(verdict, context) : failedLines(verdict, context);
  const mistyped = (verdict.mistypedCheckpoints ?? []).map(mistypedLine);
  return [...lines.map((l, i) => (i === 0 ? say(l, lang) : `  ${say(l, lang)}`)), ...[...mistyped, ...(context.notes ?? [])].map((l) => say(l, lang)), ''].join('\n');
}

function failedLines(verdict: Extract<LedgerVerdict, { ok: false }>, context: VerifyReportContext): Words[] {
  const around = context.around ?? {};
  const lines: Words[] = [VERIFY.failed(context.subject), VERIFY.firstBadSeq(verdict.firstBadSeq), VERIFY.reason(DAMAGE[verdict.reason]), VERIFY.technical(verdict.detail)];
  if (around.at) lines.push(labelled(VERIFY.rowAt, around.at));
  else lines.push(VERIFY.noRow);
  if (around.before) lines.push(labelled(VERIFY.rowBefore, around.before));
  if (!around.at && around.after) lines.push(labelled(VERIFY.rowAfter, around.after));
  for (const step of NEXT[verdict.reason]) lines.push(labelled(VERIFY.next, step));
  return lines;
}

function okLines(verdict: Extract<LedgerVerdict, { ok: true }>, context: VerifyReportContext): Words[] {
  const given = context.options.checkpoints ?? [];
  const lines: Words[] = [
    VERIFY.ok(context.subject),
    VERIFY.rows(verdict.rows, verdict.firstSeq, verdict.lastSeq, verdict.headHash),
    verdict.macChecked ? VERIFY.sealsChecked : VERIFY.sealsNotChecked,
    VERIFY.checkpointsMatched(verdict.checkpointsChecked, given.length, context.localCheckpoints),
  ];
  if (verdict.macChecked && verdict.unsealedRows > 0) {
    const mistyped = new Set((verdict.mistypedCheckpoints ?? []).map((m) => m.size));
    const covered = given.some((c) => c.size >= verdict.lastSeq && !mistyped.has(c.size));
    lines.push(covered ? VERIFY.unsealedCovered(verdict.unsealedRows) : VERIFY.unsealed(verdict.unsealedRows));
  }
  if (verdict.deletedThroughSeq > 0) lines.push(VERIFY.deletedByRetention(verdict.deletedThroughSeq));
  return lines;
}

function labelled(label: Text, value: RowFacts | Text): Words {
  if (!('seq' in value)) return text(`${label.ko}: ${value.ko}`, `${label.en}: ${value.en}`);
  return [label, ': ', ...(rowLine(value) as readonly (Text | string)[])];
}

function rowLine(row: RowFacts): Words {
  const user = row.appUser !== '' && row.appUser !== row.osUser ? `${row.osUser} (${row.appUser})` : row.osUser;
  return VERIFY.rowLine(row.seq, row.time, user, row.tool, eventTypeLabel(row.type));
}

function mistypedLine(slip: MistypedCheckpoint): Text {
  switch (slip.line) {
    case 'size':
      return MISTYPED.size(slip.size, slip.seq ?? slip.size);
    case 'hash':
      return MISTYPED.hash(slip.size);
    case 'signature':
      return MISTYPED.signature(slip.size);
    case 'time':
      return MISTYPED.time(slip.size);
  }
}

export function describeIndexProblems(problems: readonly string[], lang: AuditLang): string {
  if (problems.length === 0) return '';
  return [
    say(text('검색용 인덱스가 손상됨 — 감사 화면의 필터가 기록을 빠뜨릴 수 있습니다', 'Search indexes damaged — filtered views could hide records'), lang) + ':',
    ...problems.map((p) => `  ${p}`),
    '',
  ].join('\n');
}
