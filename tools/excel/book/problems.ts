import { text, type Text } from '../../../electron/common/i18n';
import { humanSize } from '../../kit/format';

import type { BookProblem } from '../../kit/xlsx-book';

export type { BookProblem, SheetState } from '../../kit/xlsx-book';

export function isBookProblem(value: unknown): value is BookProblem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

export function problemText(p: BookProblem, shown: string): Text {
  switch (p.problem) {
    case 'too-large':
      return text(
        `'${shown}'은(는) 너무 커서 읽지 않았습니다 (한도 ${humanSize(p.limit)}). 사용자에게 필요한 시트만 따로 저장하거나 CSV로 저장해 달라고 하세요.`,
        `'${shown}' is too large to read (limit ${humanSize(p.limit)}). Ask the user to save the sheet you need on its own, or as CSV.`,
      );
    case 'ole':
      return text(
        `'${shown}'은(는) 암호가 걸린 파일이거나 옛 엑셀 형식(.xls)이라 읽을 수 없습니다. 사용자에게 암호를 풀어 .xlsx로 저장해 달라고 하세요.`,
        `'${shown}' is password-protected or in the old Excel format (.xls), which cannot be read. Ask the user to remove the password and save it as .xlsx.`,
      );
    case 'encrypted':
      return text(
        `'${shown}'은(는) 암호가 걸려 있어 읽을 수 없습니다. 사용자에게 암호를 풀어 저장해 달라고 하세요.`,
        `'${shown}' is encrypted and cannot be read. Ask the user to save it without a password.`,
      );
    case 'damaged':
      return text(
        `'${shown}'은(는) 손상되었거나 엑셀(.xlsx) 파일이 아닙니다. 사용자에게 엑셀에서 열어 다시 저장해 달라고 하세요. 파일 종류는 filesystem.info로 볼 수 있습니다.`,
        `'${shown}' is damaged or not an Excel (.xlsx) file. Ask the user to open it in Excel and save it again. filesystem.info shows what kind of file it is.`,
      );
    case 'format':
      return p.ext === 'xls' || p.ext === 'xlsb'
        ? text(
            `'${shown}'은(는) 옛 엑셀 형식(.${p.ext})이라 읽을 수 없습니다. 사용자에게 .xlsx나 .csv로 다시 저장해 달라고 하세요.`,
            `'${shown}' is in an older Excel format (.${p.ext}), which cannot be read. Ask the user to save it again as .xlsx or .csv.`,
          )
        : text(
            `'${shown}'은(는) 엑셀(.xlsx, .xlsm)이나 CSV(.csv, .tsv) 파일이 아닙니다. 텍스트 파일은 filesystem.read로 읽으세요.`,
            `'${shown}' is not an Excel (.xlsx, .xlsm) or CSV (.csv, .tsv) file. Read text files with filesystem.read.`,
          );
  }
}

/** Parts of a workbook besides cells (XlsxBook.extras), as a person calls them. */
const EXTRA_NAMES: Readonly<Record<string, Text>> = {
  macros: text('매크로', 'macros'),
  charts: text('차트', 'charts'),
  'pivot tables': text('피벗 테이블', 'pivot tables'),
  drawings: text('도형', 'drawings'),
  images: text('그림', 'images'),
  'external links': text('외부 연결', 'external links'),
  'data connections': text('데이터 연결', 'data connections'),
  slicers: text('슬라이서', 'slicers'),
};

export function extrasText(extras: readonly string[]): Text {
  const names = extras.map((e) => EXTRA_NAMES[e] ?? text(e, e));
  return text(names.map((n) => n.ko).join(', '), names.map((n) => n.en).join(', '));
}
