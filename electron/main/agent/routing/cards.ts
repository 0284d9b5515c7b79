import type { ToolInfo } from '../../gate/catalog';
import { withinOneEdit } from './fuzzy';
import { toJamo } from './korean';
import { splitWords, withoutArguments, wordsOf, type Word } from './terms';

/**
 * The routing index over tool cards. A card is what a tool already declares (name, ko/en
 * description, keywords); each word of it is kept with the forms its stem takes and a field
 * weight: name parts and keywords say what a tool is for (3), description words only hint (1).
 * Every match is scaled by the term's rarity across tools (idf), so "파일" or "file", which half
 * the tools mention, decides less than "휴지통" or "grep".
 */
const NAME_WEIGHT = 3;
const KEYWORD_WEIGHT = 3;
/** A word of a keyword phrase ("delete" of "undo delete") says less than a keyword on its own. */
const PHRASE_WORD_WEIGHT = 2;
/** A word right before "폴더"/"folder" names the folder ("다운로드 폴더"), not the tool. */
const FOLDER_NAME_FACTOR = 0.25;
const FOLDER_WORDS = new Set(['폴더', 'folder', '디렉터리', 'directory', 'dir']);
const DESCRIPTION_WEIGHT = 1;

/** How much a match counts, by kind (an exact form match counts 1). */
export const MATCH = {
  exact: 1,
  /** a Hangul term inside a longer request word: "파일목록" holds "목록" */
  compound: 0.8,
  /** one edit apart (Latin ≥ 5 letters; Hangul ≥ 2 syllables, counted on jamo) */
  typo: 0.6,
  /** one Latin word starts the other (≥ 4 letters): "dir" no, "info" / "information" yes */
  prefix: 0.6,
  /** the request word inside a longer Hangul card term: "용량" in "디스크용량" */
  part: 0.5,
} as const;

/**
 * How office workers say "contains" and "text" in a request, mapped to the words the tools' cards
 * use ("'납품 지연'이라는 문구가 들어간 문서" is a content search). Kept here, not in the frozen
 * tools: it is about how requests are phrased, and grows as such requests are collected.
 */
const REQUEST_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  문구: ['문자열'], 문장: ['문자열'], 단어: ['문자열'], 텍스트: ['글자'],
  적히: ['포함'], 적힌: ['포함'], 인트라넷: ['웹'], 사이트: ['웹'], 홈페이지: ['웹'],
  들어가: ['포함'], 들어간: ['포함'], 들어있: ['포함'], 포함되: ['포함'], 나오: ['포함'], 나온: ['포함'],
  없애: ['삭제'], 살리: ['복원'], 코드: ['내용'], 주석: ['내용'],
  // A memo is a file: without this, "메모" is only a part of system.info's "메모리" (memory).
  메모: ['파일'],
  big: ['size'], larg: ['size'], huge: ['size'],
};

function withSynonyms(forms: readonly string[]): readonly string[] {
  let out: string[] | null = null;
  for (const f of forms) {
    const extra = REQUEST_SYNONYMS[f];
    if (!extra) continue;
    out ??= [...forms];
    for (const e of extra) if (!out.includes(e)) out.push(e);
  }
  return out ?? forms;
}

/**
 * A keyword phrase ("폴더 만들기", "create folder", "내용 검색") whose every word is in the request
 * adds this on top of its words: the phrase is more specific than any of its words.
 */
const PHRASE_BONUS = 3;

/** Most request words scored: the first 48 and the last 16 of a longer text. */
const MAX_WORDS = 64;
const TAIL_WORDS = 16;

interface Term {
  readonly text: string;
  readonly jamo: string;
  readonly hangul: boolean;
  /** [tool index, field weight × idf] */
  readonly postings: ReadonlyArray<readonly [number, number]>;
}

export interface RoutingIndex {
  readonly tools: readonly ToolInfo[];
  /** Per tool, its multi-word keywords: for each word, the forms it may match under. */
  readonly phrases: ReadonlyArray<ReadonlyArray<ReadonlyArray<readonly string[]>>>;
  readonly exact: ReadonlyMap<string, Term>;
  readonly terms: readonly Term[];
  /** The same terms by script, for the fuzzy pass (a Hangul form never matches a Latin term). */
  readonly hangulTerms: readonly Term[];
  readonly latinTerms: readonly Term[];
}

/**
 * Built once per tool list. The gate hands out a fresh array on every call, so the cache is keyed
 * by what the index is made of (names, keywords, descriptions, schemas), not by identity; a few lists are
 * kept (the list changes when MCP tools come or go).
 */
const indexes = new Map<string, RoutingIndex>();
const byIdentity = new WeakMap<readonly ToolInfo[], RoutingIndex>();
const KEPT_INDEXES = 4;

/** What an index (and the definitions built from it) depends on: names, cards and schemas. */
function signatureOf(tools: readonly ToolInfo[]): string {
  let out = '';
  for (const t of tools) out += `${t.name}\u0001${t.keywords.join('\u0002')}\u0001${t.description.ko}\u0001${t.description.en}\u0001${JSON.stringify(t.schema)}\u0003`;
  return out;
}

export function routingIndex(tools: readonly ToolInfo[]): RoutingIndex {
  const same = byIdentity.get(tools);
  if (same) return same;
  const signature = signatureOf(tools);
  const cached = indexes.get(signature);
  if (cached) {
    byIdentity.set(tools, cached);
    return cached;
  }
  const index = buildIndex(tools);
  indexes.set(signature, index);
  if (indexes.size > KEPT_INDEXES) indexes.delete(indexes.keys().next().value!);
  byIdentity.set(tools, index);
  return index;
}

function buildIndex(tools: readonly ToolInfo[]): RoutingIndex {
  const phrases = tools.map((tool) =>
    tool.keywords.map((k) => wordsOf(k, true).map((w) => w.forms)).filter((words) => words.length > 1),
  );
  const perTool: Map<string, number>[] = tools.map((tool) => {
    const weights = new Map<string, number>();
    const add = (words: readonly Word[], weight: number) => {
      for (const w of words) for (const f of w.forms) weights.set(f, Math.max(weights.get(f) ?? 0, weight));
    };
    add(wordsOf(splitWords(tool.name).join(' '), true), NAME_WEIGHT);
    for (const k of tool.keywords) {
      const words = wordsOf(k, true);
      add(words, words.length > 1 ? PHRASE_WORD_WEIGHT : KEYWORD_WEIGHT);
    }
    add(wordsOf(`${tool.description.ko} ${tool.description.en}`, true), DESCRIPTION_WEIGHT);
    return weights;
  });
  const df = new Map<string, number>();
  for (const weights of perTool) for (const t of weights.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const postings = new Map<string, [number, number][]>();
  perTool.forEach((weights, i) => {
    for (const [t, w] of weights) {
      const idf = Math.log(1 + tools.length / df.get(t)!);
      let list = postings.get(t);
      if (!list) postings.set(t, (list = []));
      list.push([i, w * idf]);
    }
  });
  const terms: Term[] = [...postings].map(([text, p]) => ({ text, jamo: toJamo(text), hangul: /[가-힣]/.test(text), postings: p }));
  return {
    tools,
    phrases,
    exact: new Map(terms.map((t) => [t.text, t])),
    terms,
    hangulTerms: terms.filter((t) => t.hangul),
    latinTerms: terms.filter((t) => !t.hangul),
  };
}

function phraseSaid(phrase: ReadonlyArray<readonly string[]>, said: ReadonlySet<string>): boolean {
  for (const forms of phrase) {
    let found = false;
    for (const f of forms) if (said.has(f)) { found = true; break; }
    if (!found) return false;
  }
  return true;
}

function namesFolder(word: Word): boolean {
  for (const f of word.forms) if (FOLDER_WORDS.has(f)) return true;
  return false;
}

function fuzzyMatch(form: string, formJamo: string, hangul: boolean, term: Term): number {
  if (hangul !== term.hangul || form === term.text) return 0;
  const t = term.text;
  if (hangul) {
    if (t.length >= 2 && form.length > t.length && form.includes(t)) return MATCH.compound;
    if (form.length >= 2 && t.length > form.length && t.includes(form)) return MATCH.part;
    if (t.length >= 2 && form.length >= 2 && Math.abs(t.length - form.length) <= 1 && withinOneEdit(formJamo, term.jamo)) return MATCH.typo;
    return 0;
  }
  if (form.length >= 5 && t.length >= 5 && withinOneEdit(form, t)) return MATCH.typo;
  if (Math.min(form.length, t.length) >= 4 && (t.startsWith(form) || form.startsWith(t))) return MATCH.prefix;
  return 0;
}

/** One score per tool (registry order): for each request word, its best match per tool, summed. */
export function scoreTools(index: RoutingIndex, text: string): Float64Array {
  const n = index.tools.length;
  const total = new Float64Array(n);
  const best = new Float64Array(n);
  const all = wordsOf(withoutArguments(text));
  // A pasted document is not a request: its first and last words carry the ask ("…을 요약해줘"),
  // and a bounded word count keeps a turn's routing under a millisecond.
  const words = all.length > MAX_WORDS ? [...all.slice(0, MAX_WORDS - TAIL_WORDS), ...all.slice(-TAIL_WORDS)] : all;
  const said = new Set<string>();
  for (const w of words) for (const f of withSynonyms(w.forms)) said.add(f);
  for (let i = 0; i < n; i++) {
    for (const phrase of index.phrases[i]!) if (phraseSaid(phrase, said)) total[i] = total[i]! + PHRASE_BONUS;
  }
  // Plain loops, no closures: this runs on every turn (see the routing-time target).
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    best.fill(0);
    const forms = withSynonyms(word.forms);
    let known = false;
    for (const form of forms) {
      const exact = index.exact.get(form);
      if (!exact) continue;
      known = true;
      for (const [i, w] of exact.postings) if (w > best[i]!) best[i] = w;
    }
    // Compounds, typos and prefixes only for a word none of whose forms is a card term: a word
    // that matched is understood, and the pass over every term is most of the routing time.
    if (!known) {
      for (const form of forms) {
        const formJamo = word.hangul ? toJamo(form) : form;
        for (const term of word.hangul ? index.hangulTerms : index.latinTerms) {
          const m = fuzzyMatch(form, formJamo, word.hangul, term);
          if (m === 0) continue;
          for (const [i, w] of term.postings) if (m * w > best[i]!) best[i] = m * w;
        }
      }
    }
    const next = words[k + 1];
    const factor = next && !FOLDER_WORDS.has(word.forms.at(-1)!) && namesFolder(next) ? FOLDER_NAME_FACTOR : 1;
    for (let i = 0; i < n; i++) total[i] = total[i]! + factor * best[i]!;
  }
  return total;
}
