import { getLocation, getNodePath, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { text, type Text } from '../../common/i18n';
import { jsonPath } from './json-path';
import type { PolicyLoad, PolicyProblem } from './types';

/**
 * JSONC reading for policy and settings files (SPEC §8: comments and trailing commas accepted).
 * Syntax errors carry line:column and the JSON path they occur under. Two things plain JSON
 * parsers accept silently are refused, because an administrator would misread them:
 *   - a duplicate key (the last one wins, so the first one the admin reads has no effect);
 *   - a key named `__proto__` (assigning it rewrites the object's prototype instead of adding a field).
 */

// Keyed by printParseErrorCode's name: ParseErrorCode is a const enum, unusable under isolatedModules.
const SYNTAX_HINTS: Readonly<Record<string, Text>> = {
  InvalidSymbol: text('예상하지 못한 문자입니다. 문자열은 큰따옴표("…")로 감싸세요', 'unexpected character; strings need double quotes ("…")'),
  InvalidNumberFormat: text('올바른 숫자가 아닙니다', 'not a valid number'),
  PropertyNameExpected: text('큰따옴표로 감싼 필드 이름이 와야 합니다', 'expected a field name in double quotes'),
  ValueExpected: text('값(문자열, 숫자, true/false, [목록], {객체})이 와야 합니다', 'expected a value (a string, number, true/false, [list] or {object})'),
  ColonExpected: text("필드 이름 뒤에 ':'가 와야 합니다", "expected ':' after the field name"),
  CommaExpected: text("두 항목 사이에 ','가 와야 합니다", "expected ',' between two entries"),
  CloseBraceExpected: text("객체를 닫는 '}'가 와야 합니다", "expected '}' to close the object"),
  CloseBracketExpected: text("목록을 닫는 ']'가 와야 합니다", "expected ']' to close the list"),
  EndOfFileExpected: text('문서가 끝난 뒤에 글자가 더 있습니다', 'unexpected text after the end of the document'),
  InvalidCommentToken: text('잘못된 주석입니다. // … 또는 /* … */를 쓰세요', 'invalid comment; use // … or /* … */'),
  UnexpectedEndOfComment: text("주석이 닫히지 않았습니다. '*/'로 끝내세요", "comment not closed; end it with '*/'"),
  UnexpectedEndOfString: text('문자열이 닫히지 않았습니다. 큰따옴표로 끝내세요', 'string not closed; end it with a double quote'),
  UnexpectedEndOfNumber: text('숫자가 끝나지 않았습니다', 'number not finished'),
  InvalidUnicode: text('잘못된 \\u 이스케이프입니다. 16진수 네 자리를 쓰세요(\\u00e9)', 'invalid \\u escape; write four hex digits (\\u00e9)'),
  InvalidEscapeCharacter: text(
    '역슬래시 뒤의 이스케이프가 잘못되었습니다. 역슬래시는 \\\\로 쓰거나(예: "C:\\\\Baram") 슬래시를 쓰세요("C:/Baram")',
    'invalid escape after a backslash; write a backslash as \\\\ (e.g. "C:\\\\Baram") or use forward slashes ("C:/Baram")',
  ),
  InvalidCharacter: text('문자열 안에 제어 문자가 있습니다. 지우거나 이스케이프(\\n, \\t)로 쓰세요', 'control character inside a string; remove it or write it as an escape (\\n, \\t)'),
};

function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function syntaxProblem(source: string, error: ParseError): PolicyProblem {
  const { line, column } = lineColumn(source, error.offset);
  const hint = SYNTAX_HINTS[printParseErrorCode(error.error)] ?? text('문법 오류', 'syntax error');
  return { path: jsonPath(getLocation(source, error.offset).path), message: text(`${line}행 ${column}열: ${hint.ko}.`, `Line ${line}, column ${column}: ${hint.en}.`) };
}

function keyProblems(source: string, node: Node, out: PolicyProblem[]): void {
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const keyNode = property.children?.[0];
      if (!keyNode || typeof keyNode.value !== 'string') continue;
      const key = keyNode.value;
      const { line, column } = lineColumn(source, keyNode.offset);
      const path = jsonPath([...getNodePath(node), key]);
      if (key === '__proto__') {
        out.push({ path, message: text(`${line}행 ${column}열: '__proto__'라는 필드 이름은 쓸 수 없습니다. 지우세요.`, `Line ${line}, column ${column}: the field name '__proto__' is not allowed; remove it.`) });
      } else if (seen.has(key)) {
        out.push({
          path,
          message: text(
            `${line}행 ${column}열: 같은 객체에 '${key}' 필드가 두 번 있습니다. 하나만 남기고 지우세요.`,
            `Line ${line}, column ${column}: field '${key}' appears twice in the same object. Keep one and delete the other.`,
          ),
        });
      }
      seen.add(key);
    }
  }
  for (const child of node.children ?? []) keyProblems(source, child, out);
}

export function parseJsonc(rawText: string): PolicyLoad<unknown> {
  // Notepad on Windows saves UTF-8 with a byte-order mark; it is not part of the document.
  const source = rawText.startsWith('\uFEFF') ? rawText.slice(1) : rawText;
  const errors: ParseError[] = [];
  const tree = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length > 0 || !tree) {
    const problems = errors.map((e) => syntaxProblem(source, e));
    const empty = text('파일이 비어 있습니다. {"version": 1} 같은 JSON 객체를 쓰세요.', 'The file is empty. Write a JSON object such as {"version": 1}.');
    return { ok: false, problems: problems.length ? problems : [{ path: '$', message: empty }] };
  }
  const problems: PolicyProblem[] = [];
  keyProblems(source, tree, problems);
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: getNodeValue(tree) as unknown };
}
