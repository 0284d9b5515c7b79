import { text, type Lang, type Text, pick } from '../../electron/common/i18n';
import type { EntryType } from '../../electron/common/file-access';

export { humanSize } from './sizes';

/**
 * Wording helpers shared by the filesystem tools: Korean particles, sizes, capped lists.
 */

/**
 * Longest list a result shows. 500 short lines stay well inside the default 30,000-character
 * output budget, and a model that needs more is better served by a narrower pattern.
 */
export const LIST_CAP = 500;

type Final = 'none' | 'rieul' | 'other' | 'unknown';

// Letters and digits are read by their Korean names (엘, 엠, 엔, 알 end in a consonant; 일, 칠, 팔
// in ㄹ), which is how people read "a.xlsx" or "2024" aloud.
const LATIN_FINAL: Readonly<Record<string, Final>> = { l: 'rieul', r: 'rieul', m: 'other', n: 'other' };
const DIGIT_FINAL: readonly Final[] = ['other', 'rieul', 'none', 'other', 'none', 'none', 'other', 'rieul', 'rieul', 'none'];

function finalSound(word: string): Final {
  const last = [...word.replace(/['"\s)\]]+$/u, '')].pop();
  if (!last) return 'unknown';
  const code = last.codePointAt(0) ?? 0;
  if (code >= 0xac00 && code <= 0xd7a3) {
    const jong = (code - 0xac00) % 28;
    return jong === 0 ? 'none' : jong === 8 ? 'rieul' : 'other';
  }
  if (last >= '0' && last <= '9') return DIGIT_FINAL[Number(last)] ?? 'unknown';
  if (/[a-z]/i.test(last)) return LATIN_FINAL[last.toLowerCase()] ?? 'none';
  return 'unknown';
}

export type Particle = '을' | '이' | '은' | '로';

/** Appends the Korean particle that fits the word's last sound: '보고서.xlsx' + 을 → '…xlsx'를. */
export function josa(word: string, particle: Particle): string {
  const f = finalSound(word);
  if (f === 'unknown') {
    const both: Record<Particle, string> = { 을: '을(를)', 이: '이(가)', 은: '은(는)', 로: '(으)로' };
    return word + both[particle];
  }
  switch (particle) {
    case '을':
      return word + (f === 'none' ? '를' : '을');
    case '이':
      return word + (f === 'none' ? '가' : '이');
    case '은':
      return word + (f === 'none' ? '는' : '은');
    case '로':
      return word + (f === 'other' ? '으로' : '로');
  }
}

/** Quoted text with a particle that fits it: `'정리/2024'로`, `"초안"을`. */
export function quoted(path: string, particle?: Particle, mark = "'"): string {
  const q = `${mark}${path}${mark}`;
  if (!particle) return q;
  return q + josa(path, particle).slice(path.length);
}

/** "파일 3개" / "3 files", or 폴더 / 항목 when the targets are folders or mixed. */
export function countNoun(types: readonly (EntryType | undefined)[], count = types.length): Text {
  const known = types.filter((t): t is EntryType => t !== undefined);
  const allDirs = known.length > 0 && known.every((t) => t === 'directory');
  const allFiles = known.length > 0 && known.every((t) => t !== 'directory');
  if (allFiles) return text(`파일 ${count}개`, count === 1 ? '1 file' : `${count} files`);
  if (allDirs) return text(`폴더 ${count}개`, count === 1 ? '1 folder' : `${count} folders`);
  return text(`항목 ${count}개`, count === 1 ? '1 item' : `${count} items`);
}

/** Lines of a list, cut at `cap` with a note on how to see the rest. */
export function cappedLines(lines: readonly string[], lang: Lang, cap = LIST_CAP, howToNarrow?: Text): string[] {
  if (lines.length <= cap) return [...lines];
  const rest = lines.length - cap;
  const hint = howToNarrow ? ` ${pick(howToNarrow, lang)}` : '';
  return [...lines.slice(0, cap), pick(text(`… 외 ${rest}개 더 있음.${hint}`, `… and ${rest} more.${hint}`), lang)];
}

/** Local time with its UTC offset ("2024-05-01 14:03:22 +09:00"): what the office worker's clock shows. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
