import { pick, text, type Lang, type Text } from '../../common/i18n';

/**
 * The audit commands speak the language --lang asks for; without it, Korean then English on each
 * line (`한국어 / English`), as they always have, so scripts matching either keep working
 * (docs/2026-12-03-audit-verify-report.md).
 */
export type AuditLang = Lang | undefined;

/**
 * A sentence, or a line of labels (Text) and values (string) — a path, a hash, a time — that
 * need no translation and are printed once even in both languages (`순번 / seq 7 · 시각 / time …`).
 */
export type Words = Text | readonly (Text | string)[];

export function say(words: Words, lang: AuditLang): string {
  if (!Array.isArray(words)) return sayText(words as Text, lang);
  return (words as readonly (Text | string)[]).map((part) => (typeof part === 'string' ? part : sayText(part, lang))).join('');
}

function sayText(words: Text, lang: AuditLang): string {
  return lang === undefined ? (words.ko === words.en ? words.ko : `${words.ko} / ${words.en}`) : pick(words, lang);
}

/** Labels and sentences of the verify report. */
export const VERIFY = {
  failed: (subject: string): Words => [text('감사 기록 검증 실패', 'Audit verification FAILED'), `: ${subject}`],
  ok: (subject: string): Words => [text('감사 기록 검증 정상', 'Audit verification OK'), `: ${subject}`],
  firstBadSeq: (seq: number): Words => [text('처음 문제가 된 순번', 'first bad seq'), `: ${seq}`],
  reason: (reason: Text): Words => [text('이유', 'reason'), ': ', reason],
  technical: (detail: string): Words => [text('기술 정보(영문)', 'technical detail'), `: ${detail}`],
  rowAt: text('문제의 기록 (지금 적혀 있는 그대로이며, 이 내용 자체가 바뀌었을 수 있습니다)', 'the first bad row (as it reads now; its text may itself be the altered part)'),
  rowBefore: text('바로 앞의 기록', 'the row just before it'),
  rowAfter: text('빠진 부분 뒤의 첫 기록', 'the first row after the gap'),
  noRow: text('이 순번의 기록은 남아 있지 않습니다', 'no row with this seq is left'),
  rowLine: (seq: number, time: string, user: string, tool: string, event: Text): Words => [
    text('순번', 'seq'),
    ` ${seq} · `,
    text('시각', 'time'),
    ` ${time} · `,
    text('사용자', 'user'),
    ` ${user} · `,
    text('도구', 'tool'),
    ' ',
    tool === '' ? text('없음', 'none') : tool,
    ' · ',
    event,
  ],
  next: text('할 일', 'what to do'),
  rows: (rows: number, first: number, last: number, head: string): Words => [text('기록 수', 'rows'), `: ${rows} (seq ${first}–${last}), `, text('마지막 해시', 'head'), ` ${head}`],
  sealsChecked: text('봉인(MAC)을 검증 키로 검증함', 'seals checked with the verification key'),
  sealsNotChecked: text('봉인(MAC)은 검증하지 않음 — --key 로 검증 키를 주세요', 'seals NOT checked — pass --key with the verification key'),
  checkpointsMatched: (matched: number, given: number, local: number) =>
    text(`체크포인트 일치: ${matched} (준 것 ${given}, 데이터 폴더에 ${local})`, `checkpoints matched: ${matched} (${given} given, ${local} in the data folder)`),
  deletedByRetention: (through: number) => text(`보존 기간이 지나 기록을 남기고 삭제됨: 순번 1–${through}`, `deleted on record by retention: seq 1–${through}`),
  unsealed: (rows: number) =>
    text(
      `아직 봉인되지 않은 오늘의 기록 ${rows}건: 이 기록을 봉인한 키가 아직 이 컴퓨터에 있어, 컴퓨터를 장악한 사람은 이 기록을 다시 쓰고 봉인할 수 있습니다. 다음 날 첫 기록 때 봉인되기 전까지 이 기록을 지키는 것은 이 컴퓨터 밖에 보관한 체크포인트뿐입니다: 지금 'baram audit checkpoint'를 인쇄하거나 사진으로 찍어 두세요.`,
      `rows of the current day not yet sealed: ${rows}. The key that sealed them is still on this machine, so whoever controls it could rewrite and re-seal them. Until they are sealed at the first write of the next day, only a checkpoint kept off this machine protects them: print or photograph 'baram audit checkpoint' now.`,
    ),
  unsealedCovered: (rows: number) =>
    text(
      `아직 봉인되지 않은 오늘의 기록 ${rows}건: 봉인 키가 아직 이 컴퓨터에 있지만, 준 체크포인트가 마지막 기록까지 덮어 이 기록을 지킵니다.`,
      `rows of the current day not yet sealed: ${rows}. Their key is still on this machine, but a checkpoint you gave reaches the last row and protects them.`,
    ),
} as const;

/** A checkpoint the auditor gave that is a mistyped copy: malformed, never tampering. */
export const MISTYPED = {
  size: (size: number, seq: number) =>
    text(
      `준 체크포인트(순번 ${size})는 형식이 맞지 않아 쓰지 않았습니다: 둘째 줄(기록 수)이 잘못 입력된 것으로 보입니다 — 해시는 순번 ${seq}의 기록과 같습니다. 조작의 증거가 아닙니다. 인쇄물과 대조해 다시 입력하세요.`,
      `The checkpoint given for seq ${size} is malformed and was not used: its second line (the number of records) looks mistyped — its hash is that of row ${seq}. This is not evidence of tampering. Compare it with the printout and type it again.`,
    ),
  hash: (size: number) =>
    text(
      `준 체크포인트(순번 ${size})는 형식이 맞지 않아 쓰지 않았습니다: 셋째 줄(해시)의 몇 글자가 기록과 다릅니다(대소문자, O와 0, l과 1 등). 조작의 증거가 아닙니다. 인쇄물과 한 글자씩 대조해 다시 입력하세요.`,
      `The checkpoint given for seq ${size} is malformed and was not used: a few characters of its third line (the hash) differ from the record (upper/lower case, O and 0, l and 1). This is not evidence of tampering. Compare it with the printout character by character and type it again.`,
    ),
  signature: (size: number) =>
    text(
      `준 체크포인트(순번 ${size})는 형식이 맞지 않아 쓰지 않았습니다: 서명 줄(— 로 시작)의 몇 글자가 잘못 입력되었습니다. 조작의 증거가 아닙니다. 인쇄물과 한 글자씩 대조해 다시 입력하세요.`,
      `The checkpoint given for seq ${size} is malformed and was not used: a few characters of its signature line (starting with —) are mistyped. This is not evidence of tampering. Compare it with the printout character by character and type it again.`,
    ),
  time: (size: number) =>
    text(
      `준 체크포인트(순번 ${size})는 형식이 맞지 않아 쓰지 않았습니다: 넷째 줄(시각)의 몇 글자가 이 기록이 만든 체크포인트와 다릅니다. 조작의 증거가 아닙니다. 인쇄물과 한 글자씩 대조해 다시 입력하세요.`,
      `The checkpoint given for seq ${size} is malformed and was not used: a few characters of its fourth line (the time) differ from the checkpoint this ledger made. This is not evidence of tampering. Compare it with the printout character by character and type it again.`,
    ),
} as const;

/** What verify says about a folder without its sealing key, and what the writing commands say there. */
export const KEY_ABSENT = {
  backupReadOnly: (madeAt: string, from: string) =>
    text(
      `이 폴더는 ${madeAt}에 ${from}에서 만든 백업이라 봉인 키가 없고(일부러 넣지 않음) 읽기만 합니다. 내보내기와 체크포인트는 원래 컴퓨터의 데이터 폴더에서 하세요. 이 백업은 'baram audit verify --data-dir 이폴더 --key …'로 검증합니다.`,
      `This folder is a backup made from ${from} at ${madeAt}: it has no sealing key (left out on purpose) and is only read. Export and take checkpoints on the original machine's data folder; verify this backup with 'baram audit verify --data-dir THIS-FOLDER --key …'.`,
    ),
  unknownReadOnly: (dir: string) =>
    text(
      `${dir}에 봉인 키(seal.key)가 없어 바람은 이 폴더에 쓰지 않습니다. 백업이나 사본이라면 정상이니 'baram audit verify --key …'로 검증만 하고, 내보내기와 체크포인트는 원래 컴퓨터에서 하세요. 바람이 지금 쓰는 데이터 폴더라면 키가 사라진 것이니 데이터 폴더 백업에서 키를 복원하거나 보안 담당자에게 알리세요.`,
      `There is no sealing key (seal.key) in ${dir}, so Baram does not write there. If the folder is a backup or a copy, that is expected: verify it with 'baram audit verify --key …' and export or take checkpoints on the original machine. If it is the data folder Baram uses, the key was lost: restore it from a backup of the data folder or tell security staff.`,
    ),
  backup: (madeAt: string, from: string) =>
    text(
      `이 폴더는 ${madeAt}에 ${from}에서 'baram audit backup'으로 만든 백업입니다. 봉인 키는 일부러 넣지 않았습니다(백업에 키가 있으면 그것을 읽은 사람이 오늘의 기록을 위조할 수 있습니다). 봉인은 보안 담당자가 보관한 검증 키로 --key 를 주어 검증하세요. 백업은 읽기만 하므로 이번 검증은 원래 데이터 폴더에 남지 않습니다.`,
      `This folder is a backup 'baram audit backup' made from ${from} at ${madeAt}. The sealing key was left out on purpose (a backup holding it would let its reader forge today's rows). Check the seals with the verification key security staff keep, by passing --key. A backup is only read, so this verification is not recorded in it.`,
    ),
  unknown: (dir: string) =>
    text(
      `${dir}에 봉인 키(seal.key)가 없습니다. 이 폴더가 백업이나 사본이라면 정상입니다: 봉인은 --key 로 검증하세요. 바람이 지금 쓰는 데이터 폴더라면 키가 사라진 것이므로 바람은 이 폴더에 새 기록을 쓰지 않습니다: 데이터 폴더 백업에서 키를 복원하거나 보안 담당자에게 알리세요. 이번 검증은 기록하지 않았습니다.`,
      `There is no sealing key (seal.key) in ${dir}. If this folder is a backup or a copy, that is expected: check the seals with --key. If it is the data folder Baram uses, the key was lost and Baram will not write new records there: restore the key from a backup of the data folder or tell security staff. This verification was not recorded.`,
    ),
} as const;
