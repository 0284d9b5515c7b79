import type { LedgerDamage, LedgerVerdict, VerifyOptions } from '../audit';

/** What each kind of damage means to a security officer reading the report. */
const DAMAGE: Readonly<Record<LedgerDamage, string>> = {
  edited: '내용이 바뀜 / edited',
  missing: '기록이 빠짐 / missing',
  reordered: '순서가 바뀜 / reordered',
  'bad-link': '앞 기록과의 연결이 끊김 / bad link',
  'segment-link': '월별 파일이 없거나 바뀜 / broken segment link',
  'bad-mac': '봉인(MAC)이 맞지 않음 / bad MAC',
  truncated: '체크포인트 이후 끝부분이 잘림 / truncated before a checkpoint',
  rewritten: '체크포인트와 다르게 다시 계산됨 / rewritten (differs from a checkpoint)',
  'bad-checkpoint': '체크포인트 서명이 맞지 않음 / checkpoint not signed by this ledger',
};

/** `localCheckpoints`: how many checkpoints the data folder holds (verify checks them too; the same one given and found counts once). */
export function describeVerdict(subject: string, verdict: LedgerVerdict, options: VerifyOptions, localCheckpoints = 0): string {
  if (!verdict.ok) {
    return [
      `감사 기록 검증 실패 / Audit verification FAILED: ${subject}`,
      `  처음 문제가 된 순번 / first bad seq: ${verdict.firstBadSeq}`,
      `  이유 / reason: ${DAMAGE[verdict.reason]}`,
      `  ${verdict.detail}`,
      '',
    ].join('\n');
  }
  const lines = [
    `감사 기록 검증 정상 / Audit verification OK: ${subject}`,
    `  기록 / rows: ${verdict.rows} (seq ${verdict.firstSeq}–${verdict.lastSeq}), 마지막 해시 / head ${verdict.headHash}`,
    verdict.macChecked
      ? `  봉인(MAC) 검증함 / seals checked with the verification key; 아직 봉인 전인 오늘의 기록 / rows of the current day not yet sealed: ${verdict.unsealedRows}`
      : '  봉인(MAC)은 검증하지 않음 — --key 로 검증 키를 주세요 / seals NOT checked — pass --key with the verification key',
    `  체크포인트 일치 / checkpoints matched: ${verdict.checkpointsChecked} (${options.checkpoints?.length ?? 0} given, ${localCheckpoints} in the data folder)`,
  ];
  if (verdict.deletedThroughSeq > 0) lines.push(`  보존 기간이 지나 기록을 남기고 삭제됨 / deleted on record by retention: seq 1–${verdict.deletedThroughSeq}`);
  return `${lines.join('\n')}\n`;
}

export function describeIndexProblems(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  return [
    '검색용 인덱스가 손상됨 — 감사 화면의 필터가 기록을 빠뜨릴 수 있습니다 / Search indexes damaged — filtered views could hide records:',
    ...problems.map((p) => `  ${p}`),
    '',
  ].join('\n');
}
