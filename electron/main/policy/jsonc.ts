import { getLocation, getNodePath, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
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
const SYNTAX_HINTS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character; strings need double quotes ("…")',
  InvalidNumberFormat: 'not a valid number',
  PropertyNameExpected: 'expected a field name in double quotes',
  ValueExpected: 'expected a value (a string, number, true/false, [list] or {object})',
  ColonExpected: "expected ':' after the field name",
  CommaExpected: "expected ',' between two entries",
  CloseBraceExpected: "expected '}' to close the object",
  CloseBracketExpected: "expected ']' to close the list",
  EndOfFileExpected: 'unexpected text after the end of the document',
  InvalidCommentToken: 'invalid comment; use // … or /* … */',
  UnexpectedEndOfComment: "comment not closed; end it with '*/'",
  UnexpectedEndOfString: 'string not closed; end it with a double quote',
  UnexpectedEndOfNumber: 'number not finished',
  InvalidUnicode: 'invalid \\u escape; write four hex digits (\\u00e9)',
  InvalidEscapeCharacter:
    'invalid escape after a backslash; write a backslash as \\\\ (e.g. "C:\\\\Baram") or use forward slashes ("C:/Baram")',
  InvalidCharacter: 'control character inside a string; remove it or write it as an escape (\\n, \\t)',
};

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function syntaxProblem(text: string, error: ParseError): PolicyProblem {
  const { line, column } = lineColumn(text, error.offset);
  const hint = SYNTAX_HINTS[printParseErrorCode(error.error)] ?? 'syntax error';
  return { path: jsonPath(getLocation(text, error.offset).path), message: `Line ${line}, column ${column}: ${hint}.` };
}

function keyProblems(text: string, node: Node, out: PolicyProblem[]): void {
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const keyNode = property.children?.[0];
      if (!keyNode || typeof keyNode.value !== 'string') continue;
      const key = keyNode.value;
      const { line, column } = lineColumn(text, keyNode.offset);
      const path = jsonPath([...getNodePath(node), key]);
      if (key === '__proto__') {
        out.push({ path, message: `Line ${line}, column ${column}: the field name '__proto__' is not allowed; remove it.` });
      } else if (seen.has(key)) {
        out.push({
          path,
          message: `Line ${line}, column ${column}: field '${key}' appears twice in the same object. Keep one and delete the other.`,
        });
      }
      seen.add(key);
    }
  }
  for (const child of node.children ?? []) keyProblems(text, child, out);
}

export function parseJsonc(rawText: string): PolicyLoad<unknown> {
  // Notepad on Windows saves UTF-8 with a byte-order mark; it is not part of the document.
  const text = rawText.startsWith('\uFEFF') ? rawText.slice(1) : rawText;
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length > 0 || !tree) {
    const problems = errors.map((e) => syntaxProblem(text, e));
    return { ok: false, problems: problems.length ? problems : [{ path: '$', message: 'The file is empty. Write a JSON object such as {"version": 1}.' }] };
  }
  const problems: PolicyProblem[] = [];
  keyProblems(text, tree, problems);
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: getNodeValue(tree) as unknown };
}
