import { describe, expect, it } from 'vitest';
import { koreanStemCandidates, stemKorean, toJamo } from '../../../electron/main/agent/routing/korean';
import { stemEnglish } from '../../../electron/main/agent/routing/english';
import { splitWords, withoutArguments, wordsOf } from '../../../electron/main/agent/routing/terms';

describe('stemKorean on office phrasings', () => {
  it.each([
    // particles
    ['보고서를', '보고서'], ['폴더에서', '폴더'], ['하위폴더까지', '하위폴더'], ['서버에서', '서버'], ['파일이', '파일'],
    ['목록을', '목록'], ['용량이', '용량'], ['로그를', '로그'], ['견적서라는', '견적서'], ['백업으로', '백업'], ['2024년부터', '2024년'],
    // verb endings
    ['정리해줘', '정리'], ['삭제해', '삭제'], ['검색해서', '검색'], ['복사해주세요', '복사'], ['실행하고', '실행'], ['수정한', '수정'], ['변경된', '변경'],
    // linking vowel and contractions
    ['찾아줘', '찾'], ['읽어줘', '읽'], ['만들어줘', '만들'], ['옮겨줘', '옮기'], ['옮겨서', '옮기'], ['바꿔줘', '바꾸'], ['지워줘', '지우'], ['보여줘', '보'],
    // nominaliser -기 (keywords) meets the verb: 옮기기 and 옮겨줘 share 옮기
    ['옮기기', '옮기'], ['찾기', '찾'], ['지우기', '지우'],
    // formal endings of the tools' own descriptions
    ['봅니다', '보'], ['찾습니다', '찾'], ['옮깁니다', '옮기'],
    // nouns that only look inflected stay whole
    ['보고서', '보고서'], ['디렉터리', '디렉터리'], ['메모리', '메모리'], ['추가', '추가'],
  ])('%s → %s', (word, stem) => {
    expect(stemKorean(word)).toBe(stem);
  });

  it('keeps every form on the way, the word itself first, so a noun that looks inflected still matches', () => {
    expect(koreanStemCandidates('찾아줘')).toEqual(['찾아줘', '찾아', '찾']);
    // 보고 is also a noun ("report"); 보 is the verb stem: both are offered to the matcher
    expect(koreanStemCandidates('보고')).toEqual(['보고', '보']);
    // an adnominal ㄴ folded into the last syllable: 고친 → 고치 (only a candidate: 파일 ends in ㄹ too)
    expect(koreanStemCandidates('고친')).toContain('고치');
    expect(stemKorean('파일')).toBe('파일');
  });

  it('decomposes Hangul into jamo (for typo distance)', () => {
    expect(toJamo('삭제')).toBe('ㅅㅏㄱㅈㅔ');
    expect(toJamo('폴더a')).toBe('ㅍㅗㄹㄷㅓa');
  });
});

describe('stemEnglish', () => {
  it.each([
    ['files', 'fil'], ['file', 'fil'], ['deleted', 'delet'], ['deleting', 'delet'], ['delete', 'delet'], ['copies', 'copy'],
    ['copied', 'copy'], ['searching', 'search'], ['listing', 'list'], ['running', 'run'], ['process', 'process'], ['ls', 'ls'],
  ])('%s → %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });
});

describe('request words', () => {
  it('splits scripts and wire names, and drops politeness, pronouns and lone particles', () => {
    expect(splitWords('xlsx파일 filesystem_read 2024년')).toEqual(['xlsx', '파일', 'filesystem', 'read', '2024', '년']);
    const words = wordsOf('이 파일 좀 정리해 주세요').map((w) => w.surface);
    expect(words).toEqual(['파일', '정리해']);
    expect(wordsOf('please show me the files').map((w) => w.surface)).toEqual(['show', 'files']);
  });

  it('cuts quoted text, URLs and file extensions out of the request: they are arguments, not intents', () => {
    const rest = withoutArguments("메모.txt에서 '김과장'을 \"김부장\"으로 바꿔줘 http://erp.local/api/stock");
    expect(rest).not.toMatch(/김과장|김부장|txt|erp|stock/);
    expect(rest).toMatch(/http/);
    expect(wordsOf(rest).map((w) => w.surface)).toEqual(['메모', '에서', '바꿔줘', 'http'].filter((w) => w !== '에서'));
  });
});
