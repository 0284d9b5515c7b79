import { RE2JS } from 're2js';

/**
 * ajv evaluates `pattern` with RE2 (linear time) instead of V8's backtracking engine, so no schema
 * pattern — ours or an MCP server's — can hang the main process (SPEC X-SCHEMA "go beyond the seed").
 * JSON Schema `pattern` is an unanchored search, which is what RE2JS#test does.
 */
interface RegExpLike {
  test(input: string): boolean;
}

function re2RegExp(pattern: string): RegExpLike {
  const compiled = RE2JS.compile(pattern);
  return { test: (input: string) => compiled.test(input) };
}

/** ajv's RegExpEngine also carries a `code` string used only for standalone code generation. */
export const re2Engine: ((pattern: string, flags: string) => RegExpLike) & { code: string } = Object.assign(
  (pattern: string) => re2RegExp(pattern),
  { code: 'require("re2js").RE2JS.compile' },
);
