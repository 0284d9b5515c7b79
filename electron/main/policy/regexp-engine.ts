import { RE2JS } from 're2js';

/**
 * ajv evaluates schema `pattern`s with RE2 (linear time) — in policy files and in every tool schema
 * the gate validates — so no pattern, ours or an MCP server's, can hang the main process
 * (SPEC X-SCHEMA "go beyond the seed"). JSON Schema `pattern` is an unanchored search, which is
 * what RE2JS#test does.
 *
 * The pattern is JSON Schema's (ECMAScript) syntax, so it is translated to RE2's first: `\uAC00`
 * (how a Korean range like `[\uAC00-\uD7A3]` is usually written) is `\x{AC00}` to RE2, and
 * `(?<name>…)` is `(?P<name>…)`. The translation turns a backreference into a literal, so schemas
 * we did not write are refused before they get here when they use one (external-schema-regex.ts).
 *
 * toString matters: ajv caches compiled patterns under `rx.toString()`. A plain object answers
 * "[object Object]" for every pattern, so the first pattern compiled would silently be used for
 * all of them (a hostKey checked against the env-name pattern). The pattern text keeps keys apart.
 */
interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

export const re2Engine: ((pattern: string, flags: string) => RegExpLike) & { code: string } = Object.assign(
  (pattern: string, flags: string): RegExpLike => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return { test: (input: string) => compiled.test(input), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'require("re2js").RE2JS.compile' },
);
