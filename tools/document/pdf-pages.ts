import { text, type Text } from '../../electron/common/i18n';

/**
 * Page ranges as people write them ("3", "2-5", "1,3,5-7", "4-" for 4 to the end) and the honesty
 * check on a page's extracted text.
 */

/** Most pages one call reads; the output budget usually stops earlier. */
export const MAX_PAGES_PER_CALL = 500;

/** The pages named by `spec` (sorted, unique, within 1..total), or a signpost why not. */
export function parsePages(spec: string | undefined, total: number): number[] | Text {
  const trimmed = (spec ?? '').trim();
  if (trimmed === '') return Array.from({ length: Math.min(total, MAX_PAGES_PER_CALL) }, (_, i) => i + 1);
  const pages = new Set<number>();
  for (const part of trimmed.split(/\s*,\s*/)) {
    const m = /^(\d+)\s*(?:(-|~|–)\s*(\d*))?$/.exec(part);
    if (!m) {
      return text(
        `pages '${spec}'을(를) 알아볼 수 없습니다. "3", "2-5", "1,3,5-7", "4-"(4쪽부터 끝까지)처럼 쓰세요.`,
        `pages '${spec}' cannot be understood. Write it like "3", "2-5", "1,3,5-7" or "4-" (page 4 to the end).`,
      );
    }
    const from = Number(m[1]);
    const to = m[2] ? (m[3] ? Number(m[3]) : total) : from;
    if (from < 1 || from > total) {
      return text(`이 PDF는 ${total}쪽입니다. pages를 1부터 ${total} 사이로 주세요.`, `This PDF has ${total} pages. Give pages between 1 and ${total}.`);
    }
    for (let p = from; p <= Math.min(to, total) && pages.size < MAX_PAGES_PER_CALL; p++) pages.add(p);
  }
  if (pages.size === 0) {
    return text(`pages '${spec}'에 해당하는 쪽이 없습니다. "2-5"처럼 앞 번호를 작게 쓰세요.`, `pages '${spec}' names no page. Write ranges low to high, like "2-5".`);
  }
  return [...pages].sort((a, b) => a - b);
}

/** Sorted pages in the compact form the marker suggests: [1, 2, 3, 5] → "1-3,5". */
export function pageList(pages: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    parts.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

export { classifyPage, cleanPageText, type PageKind } from '../kit/pdf-extract';
