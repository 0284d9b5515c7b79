import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../../electron/main/gate/catalog';
import { route, RoutingState } from '../../../electron/main/agent/routing/router';

/**
 * What office workers ask about PDF, Word and HWP files reaches the document tools (issue 18).
 * Not yet here: a request whose only clue is the extension ("견적서.pdf 읽어줘"): the router drops
 * extensions as arguments (terms.ts withoutArguments), so it sends filesystem.read, whose answer
 * for a .pdf names document.pdf.read.
 */
const cases: [string, string[], 'ko' | 'en'][] = [
  ['보고서 PDF 3쪽부터 5쪽까지 보여줘', ['document.pdf.read'], 'ko'],
  ['기안문.hwp 열어서 내용 알려줘', ['document.hwp.read'], 'ko'],
  ['한글 문서에 있는 표 뽑아줘', ['document.hwp.read'], 'ko'],
  ['계약서.docx 읽어줘', ['document.word.read'], 'ko'],
  ['회의록을 워드 문서로 만들어줘', ['document.word.write'], 'ko'],
  ['read the pdf report', ['document.pdf.read'], 'en'],
  ['write the summary into a word document', ['document.word.write'], 'en'],
  ['open the hwp file from the ministry', ['document.hwp.read'], 'en'],
];

describe('routing document requests over the real catalog', () => {
  const tools = toolCatalog();
  it.each(cases)('%s → one of %j', (request, correct, lang) => {
    const r = route(request, new RoutingState(), tools, { lang });
    expect(r.schemas.some((s) => correct.includes(s))).toBe(true);
  });
});
