import { text, type Text } from '../../../common/i18n';

/** The viewer's reader could not open or read the ledger; `text` is shown to the person as is. */
export class LedgerReadError extends Error {
  constructor(readonly text: Text) {
    super(`${text.ko} / ${text.en}`);
    this.name = 'LedgerReadError';
  }
}

export const queryMessages = {
  notALedger: (file: string): Text =>
    text(
      `${file}은(는) 감사 기록 파일이 아닙니다 (스키마 버전 0). 감사 폴더의 ledger-YYYY-MM.sqlite3 파일만 여세요.`,
      `${file} is not an audit ledger segment (schema version 0). Open only the ledger-YYYY-MM.sqlite3 files of the audit folder.`,
    ),
  newerSchema: (file: string, version: number, known: number): Text =>
    text(
      `${file}의 형식(스키마 ${version})을 이 Baram 버전은 모릅니다 (${known}만 압니다). Baram을 업데이트한 뒤 여세요.`,
      `${file} has schema version ${version}, which this Baram build does not know (it knows ${known}). Update Baram, then open it.`,
    ),
  badSegmentName: (file: string): Text =>
    text(
      `${file}은(는) 감사 기록 구간 파일 이름(ledger-YYYY-MM.sqlite3)이 아닙니다. 감사 폴더의 구간 파일 목록을 그대로 넘기세요.`,
      `${file} is not named like a ledger segment (ledger-YYYY-MM.sqlite3). Pass the audit folder's segment files as listed.`,
    ),
  duplicateSegment: (name: string): Text =>
    text(`${name} 구간이 두 번 들어 있습니다. 각 구간 파일은 한 번만 넘기세요.`, `Segment ${name} was given twice. Pass each segment file once.`),
  segmentsOverlap: (newer: string, older: string): Text =>
    text(
      `${older}의 seq가 더 새 구간 ${newer}의 seq와 겹칩니다. 기록이 손상되었을 수 있으니 'baram audit verify'로 확인하세요.`,
      `${older} holds seq numbers at or above those of the newer segment ${newer}. The ledger may be damaged: run 'baram audit verify'.`,
    ),
  badRow: (file: string, seq: number): Text =>
    text(
      `${file}의 seq ${seq} 행은 JSON으로 읽을 수 없습니다. 기록이 손상되었을 수 있으니 'baram audit verify'로 확인하세요.`,
      `Row seq ${seq} of ${file} is not valid JSON. The ledger may be damaged: run 'baram audit verify'.`,
    ),
  closed: text('감사 기록 보기가 이미 닫혔습니다. 다시 여세요.', 'The audit ledger reader is closed. Open it again.'),
} as const;
