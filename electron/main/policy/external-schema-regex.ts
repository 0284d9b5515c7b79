import { RegExpParser, visitRegExpAST, type AST } from '@eslint-community/regexpp';
import { text, type Text } from '../../common/i18n';
import { re2Engine } from './regexp-engine';

/**
 * The regex budget for a `pattern` in a schema we did not write (SPEC X-SCHEMA, seed ADR-0012).
 * The numbers are the seed's measurements turned into constants, not settings: a control that one
 * line of configuration can remove is not a control.
 *
 * The shape rules read a real parse tree (regexpp, the parser ESLint uses), never the pattern text,
 * so a `+` inside a character class or after a backslash is not mistaken for a quantifier. They are
 * defence in depth: the gate evaluates patterns with RE2 (regexp-engine.ts), which cannot backtrack.
 */
export const MAX_REGEX_CHARS = 512;
/** Four unbounded quantifiers hung at n=1000 in the seed's measurement, five at n=100. */
export const MAX_UNBOUNDED_QUANTIFIERS = 3;
/** A field with a `pattern` must declare `maxLength` of at most this. */
export const MAX_PATTERN_INPUT_LENGTH = 256;
/**
 * Beyond the seed: the size of the expression once counted repeats are written out, which is what
 * RE2 compiles (`x{0,1000}` is a thousand copies of x) and what its per-character cost grows with.
 * Without it, 476 characters of `[\s\S]{0,1000}` repeated, with no unbounded quantifier at all,
 * took 2.4 s to compile on the main thread. 1000 admits `.{0,256}` four times over and any ID, date
 * or code format.
 */
export const MAX_REGEX_EXPANDED_SIZE = 1000;

export type RegexRule = 'regex-too-long' | 'regex-too-large' | 'regex-does-not-compile' | 'nested-unbounded-repeat' | 'too-many-unbounded';

export interface RegexFinding {
  readonly rule: RegexRule;
  readonly message: Text;
}

// JSON Schema patterns are ECMA-262 regular expressions; ajv compiles them with the `u` flag.
const parser = new RegExpParser({ ecmaVersion: 2024 });

/** The first rule `pattern` breaks, or null when it is within the budget. */
export function regexBudgetFinding(pattern: string): RegexFinding | null {
  if (pattern.length > MAX_REGEX_CHARS) {
    // Checked before parsing: the length limit also bounds the cost of the analysis itself.
    return {
      rule: 'regex-too-long',
      message: text(
        `정규식이 ${pattern.length}자로, 허용 한도 ${MAX_REGEX_CHARS}자를 넘습니다. 더 짧은 정규식을 쓰거나 enum·format으로 바꾸세요.`,
        `The regular expression is ${pattern.length} characters, over the limit of ${MAX_REGEX_CHARS}. Write a shorter one, or use enum or format instead.`,
      ),
    };
  }
  let ast: AST.Pattern;
  try {
    ast = parser.parsePattern(pattern, 0, pattern.length, { unicode: true });
  } catch (error) {
    return notCompiled(text('JSON Schema(ECMAScript) 정규식 문법', 'JSON Schema (ECMAScript) regular expression syntax'), error);
  }
  // Before RE2 compiles it: the size is what makes that compile slow.
  const size = expandedSize(ast);
  if (size > MAX_REGEX_EXPANDED_SIZE) {
    return {
      rule: 'regex-too-large',
      message: text(
        `반복 횟수를 풀어 쓰면 정규식 크기가 ${size}로, 한도 ${MAX_REGEX_EXPANDED_SIZE}을(를) 넘습니다. {m,n}의 상한을 줄이세요(입력은 어차피 maxLength ${MAX_PATTERN_INPUT_LENGTH} 이하입니다).`,
        `With its counted repeats written out the expression has size ${size}, over the limit of ${MAX_REGEX_EXPANDED_SIZE}. Lower the bounds of {m,n} (the input is at most maxLength ${MAX_PATTERN_INPUT_LENGTH} anyway).`,
      ),
    };
  }
  const unsupported = backtrackingOnly(ast);
  if (unsupported) {
    return {
      rule: 'regex-does-not-compile',
      message: text(
        `'${unsupported}'은(는) 선형 시간 엔진 RE2가 지원하지 않습니다(역참조와 전후방 탐색은 백트래킹이 필요합니다). 이 부분 없이 정규식을 다시 쓰세요.`,
        `'${unsupported}' is not supported by the linear-time engine RE2 (backreferences and lookaround need backtracking). Rewrite the expression without it.`,
      ),
    };
  }
  try {
    re2Engine(pattern, 'u');
  } catch (error) {
    return notCompiled(
      text('선형 시간 엔진 RE2(역참조·전후방 탐색 없음)', 'the linear-time engine RE2 (no backreferences, no lookahead or lookbehind)'),
      error,
    );
  }
  return shapeFinding(ast);
}

/** The raw text of a backreference or lookaround, which only a backtracking engine can evaluate. */
function backtrackingOnly(ast: AST.Pattern): string | null {
  let found: string | null = null;
  visitRegExpAST(ast, {
    onBackreferenceEnter: (node) => void (found ??= node.raw),
    onAssertionEnter: (node) => {
      if (node.kind === 'lookahead' || node.kind === 'lookbehind') found ??= node.raw;
    },
  });
  return found;
}

function notCompiled(what: Text, error: unknown): RegexFinding {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    rule: 'regex-does-not-compile',
    message: text(
      `정규식이 ${what.ko}으로 컴파일되지 않습니다(${detail}). 정규식을 고치세요.`,
      `The regular expression does not compile under ${what.en} (${detail}). Fix the expression.`,
    ),
  };
}

function isUnbounded(q: AST.Quantifier): boolean {
  return q.max === Infinity;
}

function shapeFinding(ast: AST.Pattern): RegexFinding | null {
  const quantifiers: AST.Quantifier[] = [];
  visitRegExpAST(ast, { onQuantifierEnter: (q) => void quantifiers.push(q) });

  // `(x+x+)+y` and `(.*,){11}P`: the outer repeat multiplies the ways the inner one can split the
  // input. A bound on the outer repeat does not help ({11} hung at every size in the seed).
  for (const outer of quantifiers) {
    if (outer.max <= 1) continue;
    const inner = quantifiers.find((q) => q !== outer && isUnbounded(q) && contains(outer.element, q));
    if (inner) {
      return {
        rule: 'nested-unbounded-repeat',
        message: text(
          `'${outer.raw}'는 무한 수량자 '${inner.raw}'를 품은 부분을 다시 반복합니다(바깥 반복에 상한이 있어도 거부). 안쪽 수량자에 상한을 두거나({1,20}) 반복을 풀어 쓰세요.`,
          `'${outer.raw}' repeats a part that contains the unbounded quantifier '${inner.raw}' (refused even when the outer repeat has a bound). Bound the inner quantifier (e.g. {1,20}) or write the repeat out.`,
        ),
      };
    }
  }

  const unbounded = quantifiers.filter(isUnbounded);
  if (unbounded.length > MAX_UNBOUNDED_QUANTIFIERS) {
    return {
      rule: 'too-many-unbounded',
      message: text(
        `무한 수량자(*, +, {n,})가 ${unbounded.length}개입니다. ${MAX_UNBOUNDED_QUANTIFIERS}개까지 허용됩니다. 일부에 상한을 두세요(예: {0,20}).`,
        `The expression has ${unbounded.length} unbounded quantifiers (*, +, {n,}); at most ${MAX_UNBOUNDED_QUANTIFIERS} are allowed. Give some of them a bound (e.g. {0,20}).`,
      ),
    };
  }
  return null;
}

/** Atoms after writing out `{m,n}` as n copies (an unbounded repeat counts its minimum, at least once). */
function expandedSize(node: AST.Node): number {
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return node.alternatives.reduce((sum, alt) => sum + expandedSize(alt), 0);
    case 'Alternative':
      return node.elements.reduce((sum, el) => sum + expandedSize(el), 0);
    case 'Quantifier': {
      const copies = node.max === Infinity ? Math.max(node.min, 1) : node.max;
      return Math.min(Number.MAX_SAFE_INTEGER, expandedSize(node.element) * copies);
    }
    case 'Assertion':
      return node.kind === 'lookahead' || node.kind === 'lookbehind' ? node.alternatives.reduce((sum, alt) => sum + expandedSize(alt), 0) : 1;
    default:
      // A character, a class, a set (\d, .), a backreference: one position each.
      return 1;
  }
}

function contains(outer: AST.Node, inner: AST.Node): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}
