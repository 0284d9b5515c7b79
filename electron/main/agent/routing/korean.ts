/**
 * A small Korean stemmer for tool routing — no dictionary, on purpose (the app is offline and
 * small). Office requests put a particle after a noun ("보고서를", "폴더에서") and an ending after a
 * verb ("정리해줘", "옮겨 주세요", "찾아서"); routing only needs the bare noun or verb stem so that
 * "옮겨줘" meets the keyword "옮기기" and "폴더에서" meets "폴더".
 *
 * Without a dictionary a suffix cannot always be told from the end of a noun ("추가" ends in the
 * particle 가, "보고" in the ending 고), so `koreanStemCandidates` returns every form on the way
 * (the word itself first) and the router takes the best match; `stemKorean` returns the
 * most-stripped form (the last, before an unfolded guess: see koreanStemCandidates). In order:
 *   1. particles (을/를/이/가/은/는/에/에서/으로/로/의/와/과/도/만/까지/부터 and a few more), at most
 *      two ("폴더에서도" is one entry), longest first; one-syllable particles that also end common
 *      nouns (이, 가, 도, 의, 로, …) need two syllables left;
 *   2. verb endings (-해줘, -해 주세요 is split by spaces into "-해" + a stop word, -하고, -한, -된,
 *      -해서, -어서, -어봐, -기, -는, -ㅂ니다 …), longest first, at most two (the second of two
 *      syllables or more);
 *   3. the infinitive vowel 아/어 after a stem that ends in a consonant ("찾아" → "찾");
 *   4. contracted vowels of the infinitive back to the stem's ("옮겨" → "옮기", "바꿔" → "바꾸",
 *      "정리해" → "정리하" is already cut in 2), and a handful of irregular verbs ("보여" → "보").
 */

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;

export function isHangulSyllable(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c >= HANGUL_FIRST && c <= HANGUL_LAST;
}

export function hasHangul(word: string): boolean {
  for (const ch of word) if (isHangulSyllable(ch)) return true;
  return false;
}

interface Syllable {
  readonly lead: number;
  readonly vowel: number;
  readonly tail: number;
}

function split(ch: string): Syllable | null {
  if (!isHangulSyllable(ch)) return null;
  const i = ch.charCodeAt(0) - HANGUL_FIRST;
  return { lead: Math.floor(i / 588), vowel: Math.floor((i % 588) / 28), tail: i % 28 };
}

function join(s: Syllable): string {
  return String.fromCharCode(HANGUL_FIRST + s.lead * 588 + s.vowel * 28 + s.tail);
}

// Compatibility jamo, so a decomposed word is readable in a test and has one char per jamo.
const LEADS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
const VOWELS = 'ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ';
const TAILS = ['', 'ㄱ', 'ㄲ', 'ㄳ', 'ㄴ', 'ㄵ', 'ㄶ', 'ㄷ', 'ㄹ', 'ㄺ', 'ㄻ', 'ㄼ', 'ㄽ', 'ㄾ', 'ㄿ', 'ㅀ', 'ㅁ', 'ㅂ', 'ㅄ', 'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅊ', 'ㅋ', 'ㅌ', 'ㅍ', 'ㅎ'];

/** "삭제" → "ㅅㅏㄱㅈㅔ": typo distance is measured on jamo, where ㅐ/ㅔ or 더/도 differ by one. */
export function toJamo(word: string): string {
  let out = '';
  for (const ch of word) {
    const s = split(ch);
    out += s ? LEADS[s.lead]! + VOWELS[s.vowel]! + TAILS[s.tail]! : ch;
  }
  return out;
}

/** [suffix, syllables that must remain]. Longest first is enforced by sorting below. */
const PARTICLES: ReadonlyArray<readonly [string, number]> = [
  ['에서부터', 1], ['으로부터', 1], ['에서는', 1], ['에서도', 1], ['에서의', 1], ['에서만', 1], ['에서', 1],
  ['으로는', 1], ['으로도', 1], ['으로', 1], ['로부터', 1], ['로는', 1], ['로도', 1], ['로', 2],
  ['에게서', 1], ['에게', 1], ['한테', 1], ['에는', 1], ['에도', 1], ['에만', 1], ['에', 1],
  ['이라는', 1], ['라는', 1], ['이란', 1], ['란', 2],
  ['까지', 1], ['부터', 1], ['처럼', 1], ['마다', 1], ['이랑', 1], ['이나', 1], ['만큼', 1],
  ['을', 1], ['를', 1], ['은', 2], ['는', 2], ['이', 2], ['가', 2], ['의', 2], ['와', 2], ['과', 2],
  ['도', 2], ['만', 2], ['랑', 2], ['나', 2], ['이야', 1], ['이에요', 1], ['예요', 2], ['입니다', 1],
];

/** Verb endings (and -기 / -음 nominalisers), cut from a stem. */
const ENDINGS: ReadonlyArray<readonly [string, number]> = [
  ['해주시겠어요', 1], ['해주실래요', 1], ['해주세요', 1], ['해주십시오', 1], ['해줄래요', 1], ['해줄래', 1], ['해줘요', 1], ['해줘', 1],
  ['주시겠어요', 1], ['주실래요', 1], ['주세요', 1], ['주십시오', 1], ['줄래요', 1], ['줄래', 1], ['줘요', 1], ['줘', 1], ['주고', 1],
  ['하려면', 1], ['하려고', 1], ['했는지', 1], ['하는지', 1], ['합니다', 1], ['하세요', 1], ['하면서', 1],
  ['해서', 1], ['하여', 1], ['하고', 1], ['하는', 1], ['하면', 1], ['하기', 1], ['하게', 1], ['해요', 1], ['했어', 1], ['했던', 1], ['했고', 1],
  ['되는', 1], ['되어', 1], ['되면', 1], ['됐는지', 1], ['된', 1], ['될', 1], ['돼', 1],
  ['한', 1], ['할', 1], ['해', 1],
  ['으려면', 1], ['려면', 1], ['으려고', 1], ['려고', 1], ['으면', 1], ['었는지', 1], ['았는지', 1], ['는지', 1], ['은지', 1], ['인지', 1],
  ['봐줘', 1], ['봐요', 1], ['봐', 1], ['볼래', 1], ['보세요', 1],
  ['세요', 1], ['어요', 1], ['아요', 1], ['어서', 1], ['아서', 1], ['여서', 1], ['고', 1], ['는', 1], ['은', 1], ['기', 1], ['면', 1],
];

/** A particle standing alone (left when a quoted name is cut out: "'김과장'을" → "을"). */
export function isParticle(word: string): boolean {
  return PARTICLES.some(([p]) => p === word);
}

const byLength = (a: readonly [string, number], b: readonly [string, number]) => b[0].length - a[0].length;
const PARTICLES_SORTED = [...PARTICLES].sort(byLength);
const ENDINGS_SORTED = [...ENDINGS].sort(byLength);

/** Contracted infinitives whose stem cannot be recovered by vowel rules alone. */
const IRREGULAR: Readonly<Record<string, string>> = {
  보여: '보', 알려: '알리', 써: '쓰', 꺼: '끄', 줘: '주', 돼: '되', 해: '하', 봐: '보', 와: '오', 둬: '두', 가져: '가지',
};

/** One-syllable irregular infinitives that also end longer verbs ("정리해" → "정리하"); not 와 (과/와 nouns). */
const IRREGULAR_SYLLABLES = Object.entries(IRREGULAR).filter(([form]) => form.length === 1 && form !== '와');

function stripOne(word: string, table: ReadonlyArray<readonly [string, number]>): string | null {
  for (const [suffix, rest] of table) {
    if (word.length - suffix.length >= rest && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return null;
}

/** "옮겨서" → "옮겨", "봐서" → "봐": 서 after a contracted infinitive (not the 서 of "보고서"). */
function stripInfinitiveSeo(word: string): string | null {
  if (word.length < 2 || !word.endsWith('서')) return null;
  const prev = split(word.at(-2)!);
  return prev && prev.tail === 0 && INFINITIVE_VOWELS.has(prev.vowel) ? word.slice(0, -1) : null;
}

const T_N = 4, T_L = 8, T_B = 17;
function dropFoldedTail(word: string): string | null {
  if (word.length < 2) return null;
  const s = split(word.at(-1)!);
  if (!s || (s.tail !== T_N && s.tail !== T_L)) return null;
  return word.slice(0, -1) + join({ ...s, tail: 0 });
}

/**
 * The formal -ㅂ니다/-습니다 of the tools' own descriptions: "봅니다" → "보", "찾습니다" → "찾",
 * "옮깁니다" → "옮기".
 */
function stripFormal(word: string): string | null {
  if (word.length >= 3 && word.endsWith('습니다')) return word.slice(0, -3);
  if (word.length >= 3 && word.endsWith('니다')) {
    const s = split(word.at(-3)!);
    if (s && s.tail === T_B) return word.slice(0, -3) + join({ ...s, tail: 0 });
  }
  return null;
}

/** "찾아" → "찾", "읽어" → "읽": the linking vowel after a consonant-final stem. */
function stripLinkingVowel(word: string): string | null {
  if (word.length < 2) return null;
  const last = word.at(-1)!;
  if (last !== '아' && last !== '어') return null;
  const prev = split(word.at(-2)!);
  return prev && prev.tail !== 0 ? word.slice(0, -1) : null;
}

// Vowel indices in the syllable table.
const V_A = 0, V_AE = 1, V_YEO = 6, V_O = 8, V_WA = 9, V_U = 13, V_WEO = 14, V_I = 20;
const L_H = 18;
/** ㅏ ㅐ ㅓ ㅕ ㅘ ㅝ: the vowels an infinitive (-아/-어, contracted) ends in. */
const INFINITIVE_VOWELS = new Set([0, 1, 4, 6, 9, 14]);

/** "옮겨" → "옮기", "바꿔" → "바꾸", "정리해" → "정리하": the stem vowel before 아/어 merged. */
function uncontract(word: string): string | null {
  const irregular = IRREGULAR[word];
  if (irregular) return irregular;
  for (const [form, stem] of IRREGULAR_SYLLABLES) {
    if (word.length > 1 && word.endsWith(form)) return word.slice(0, -1) + stem;
  }
  const s = split(word.at(-1)!);
  if (!s || s.tail !== 0 || word.length < 2) return null;
  const to = (vowel: number) => word.slice(0, -1) + join({ ...s, vowel });
  if (s.vowel === V_YEO) return to(V_I);
  if (s.vowel === V_WEO) return to(V_U);
  if (s.vowel === V_WA) return to(V_O);
  if (s.vowel === V_AE && s.lead === L_H) return to(V_A);
  // ㅡ-stems (예뻐 → 예쁘) are rare in requests; 써/꺼 are in IRREGULAR.
  return null;
}

/**
 * Every form from the word itself to its most-stripped stem, without repeats. `unfold` adds the
 * stem under a folded adnominal ㄴ/ㄹ ("고친" → "고치"): right for a request, wrong for the tools'
 * cards, whose nouns would sprout false stems ("지원" → "지워", which then meets "지워줘").
 */
export function koreanStemCandidates(word: string, unfold = true): string[] {
  const out: string[] = [word];
  const push = (w: string | null): string | null => {
    if (w && w.length > 0 && !out.includes(w)) out.push(w);
    return w;
  };
  let s = word;
  let unfolded: string | null = null;
  for (let i = 0; i < 2; i++) {
    const next = stripOne(s, PARTICLES_SORTED);
    if (!next) break;
    s = push(next) ?? next;
  }
  // Endings apply to what the particle pass left, and also to the word itself: "찾는" is a verb
  // (the particle rule for 는 wants two syllables left, the ending rule one).
  const starts = s === word ? [word] : [s, word];
  for (let pass = 0; pass < starts.length; pass++) {
    const start = starts[pass]!;
    let e = start;
    // Two endings at most, the second of two syllables or more: "옮기기" is 옮기 + 기, not 옮 + 기 + 기.
    for (let i = 0; i < 2; i++) {
      const next = stripFormal(e) ?? stripOne(e, ENDINGS_SORTED) ?? stripInfinitiveSeo(e);
      if (!next || (i > 0 && e.length - next.length < 2)) break;
      e = next;
      push(e);
    }
    const linked = stripLinkingVowel(e);
    if (linked) { push(linked); e = linked; }
    const stem = uncontract(e);
    if (stem) push(stem);
    if (pass > 0) continue;
    s = stem ?? e;
    // "고친" → "고치": an adnominal ㄴ/ㄹ folded into the last syllable of a word nothing else was
    // cut from. Only a candidate, never the stem: "파일" ends in ㄹ too.
    if (unfold && s === start) unfolded = dropFoldedTail(s);
  }
  // The most-stripped form of the first pass goes last, so stemKorean can take it.
  const primary = s;
  const i = out.indexOf(primary);
  if (i > 0 && i !== out.length - 1) { out.splice(i, 1); out.push(primary); }
  // The unfolded guess goes after the stem: it is the least certain form.
  if (unfolded && !out.includes(unfolded)) out.push(unfolded);
  return out;
}

/** The bare stem: "보고서를" → "보고서", "정리해줘" → "정리", "옮겨서" → "옮기", "찾아줘" → "찾". */
export function stemKorean(word: string): string {
  return koreanStemCandidates(word, false).at(-1)!;
}
