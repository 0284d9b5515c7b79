import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../../electron/main/gate/catalog';
import { route, RoutingState } from '../../../electron/main/agent/routing/router';

/** What office workers ask about Excel and CSV files reaches the excel tools (issue 18). */
const cases: [string, string[], 'ko' | 'en'][] = [
  ['매출 엑셀 파일 내용 읽어줘', ['excel.read'], 'ko'],
  ['엑셀 파일에 시트가 몇 개 있는지 알려줘', ['excel.sheets'], 'ko'],
  ['거래처.csv 표 보여줘', ['excel.read'], 'ko'],
  ['이 표를 엑셀 파일로 저장해줘', ['excel.write'], 'ko'],
  ['엑셀 C7 칸 값을 1300으로 수정해줘', ['excel.write'], 'ko'],
  ['read the sales spreadsheet', ['excel.read'], 'en'],
  ['list the sheets in budget.xlsx', ['excel.sheets'], 'en'],
  ['save this table as an excel file', ['excel.write'], 'en'],
];

describe('routing excel requests over the real catalog', () => {
  const tools = toolCatalog();
  it.each(cases)('%s → one of %j', (request, correct, lang) => {
    const r = route(request, new RoutingState(), tools, { lang });
    expect(r.schemas.some((s) => correct.includes(s))).toBe(true);
  });
});
