/** Every user- or model-facing string exists in Korean and English; Korean is the default. */
export type Lang = 'ko' | 'en';

export const LANGS: readonly Lang[] = ['ko', 'en'];

export interface Text {
  readonly ko: string;
  readonly en: string;
}

export function pick(text: Text, lang: Lang): string {
  return lang === 'en' ? text.en : text.ko;
}

/** Builds a Text whose two halves share the same template arguments. */
export function text(ko: string, en: string): Text {
  return { ko, en };
}

export function isLang(value: unknown): value is Lang {
  return value === 'ko' || value === 'en';
}
