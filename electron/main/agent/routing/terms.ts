import { ENGLISH_STOP, stemEnglish } from './english';
import { hasHangul, isParticle, koreanStemCandidates } from './korean';

/** One word of a request or a tool card, with the forms it may match under. */
export interface Word {
  readonly surface: string;
  /** The word itself first, then its stems. */
  readonly forms: readonly string[];
  readonly hangul: boolean;
}

/** Korean words (and the stems they leave) that name no tool: politeness, pronouns, fillers. */
const KOREAN_STOP = new Set([
  '좀', '주세요', '줘', '줘요', '해', '해요', '해줘', '해주세요', '하', '주', '되', '있', '없', '그', '이', '저', '그리고', '다음', '것', '거',
  '수', '내', '제', '나', '우리', '모든', '전부', '다', '한번', '지금', '뭐', '어떤', '무슨', '어디', '언제', '오늘', '좀더', '그거', '이거',
  '뭐가', '무엇', '무엇을', '보', '먼저', '그다음', '후', '뒤', '안', '중', '부탁', '부탁해', '요', '혹시', '바로', '같', '싶', '알리', '알', '말', '있는', '있어', '해서', '하고',
]);

/**
 * Splits text into words: runs of Hangul, of Latin letters, of digits (a boundary between scripts
 * splits too: "xlsx파일" is "xlsx" + "파일"; "filesystem_read" is "filesystem" + "read").
 */
export function splitWords(text: string): string[] {
  return text.toLowerCase().match(/[가-힣]+|[a-z]+|[0-9]+/g) ?? [];
}

/** `card`: a word of a tool's card (keywords, description), stemmed without request-only guesses. */
export function wordOf(surface: string, card = false): Word | null {
  if (hasHangul(surface)) {
    if (KOREAN_STOP.has(surface) || isParticle(surface)) return null;
    const candidates = koreanStemCandidates(surface, !card);
    // "있는지" → 있, "뭐가" → 뭐: a word whose stem says nothing is dropped whole.
    if (KOREAN_STOP.has(candidates.at(-1)!)) return null;
    const forms = candidates.filter((f) => !KOREAN_STOP.has(f));
    return forms.length > 0 ? { surface, forms, hangul: true } : null;
  }
  if (/^[0-9]+$/.test(surface) || surface.length < 2 || ENGLISH_STOP.has(surface)) return null;
  const stem = stemEnglish(surface);
  if (ENGLISH_STOP.has(stem)) return null;
  return { surface, forms: stem === surface ? [surface] : [surface, stem], hangul: false };
}

/**
 * What in a request is an argument rather than an intent: quoted text ('김과장', "timeout"), URLs
 * (the word "http" stays: it names the tool), the name after "named"/"called" ("a folder named
 * archive" is a folder, not the archive tools), and file extensions other than those that say which
 * tool opens the file (회의록.txt is a name; "txt" in a description would otherwise pull search.text
 * in; 견적서.pdf and 첨부.zip keep theirs).
 */
const DOCUMENT_EXTENSIONS = new Set(['pdf', 'xlsx', 'xls', 'csv', 'docx', 'hwp', 'hwpx', 'zip']);

export function withoutArguments(text: string): string {
  return text
    .replace(/'[^']*'|"[^"]*"|‘[^’]*’|“[^”]*”|「[^」]*」|『[^』]*』/g, ' ')
    .replace(/\b(https?):\/\/\S+/gi, ' $1 ')
    .replace(/\b(named|called)\s+[^\s,.]+/gi, ' ')
    // A document's extension says which tool reads it ("견적서.pdf" → the PDF reader) and stays as a
    // word; any other extension is part of a name.
    .replace(/\.([a-zA-Z0-9]{1,5})\b/g, (_, ext: string) => (DOCUMENT_EXTENSIONS.has(ext.toLowerCase()) ? ` ${ext} ` : ' '));
}

/** The routing words of a text, in order, without repeats of the same surface. */
export function wordsOf(text: string, card = false): Word[] {
  const seen = new Set<string>();
  const out: Word[] = [];
  for (const s of splitWords(text)) {
    if (seen.has(s)) continue;
    seen.add(s);
    const w = wordOf(s, card);
    if (w) out.push(w);
  }
  return out;
}
