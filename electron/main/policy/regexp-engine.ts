import { RE2JS } from 're2js';

/**
 * ajv evaluates schema `pattern`s with RE2 (linear time) — in policy files and in every tool schema
 * the gate validates — so no pattern, ours or an MCP server's, can hang the main process
 * (SPEC X-SCHEMA "go beyond the seed"). JSON Schema `pattern` is an unanchored search, which is
 * what RE2JS#test does.
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
    const compiled = RE2JS.compile(pattern);
    return { test: (input: string) => compiled.test(input), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'require("re2js").RE2JS.compile' },
);
