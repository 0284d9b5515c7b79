import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli';

/**
 * `baram schema check FILE` through the real built command (SPEC §7, X-SCHEMA): an administrator
 * checks a vendor's manifest or an MCP server's tools/list before listing the server in the policy.
 */
let base: string;
let n = 0;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-schema-check-')));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function file(content: unknown, raw = false): Promise<string> {
  const path = join(base, `s${++n}.json`);
  await writeFile(path, raw ? String(content) : JSON.stringify(content, null, 2));
  return path;
}

const good = { type: 'object', properties: { id: { type: 'string', maxLength: 32, pattern: '^[A-Z]{2}-[0-9]+$' } }, required: ['id'] };
const bad = { type: 'object', properties: { q: { type: 'string', pattern: '(.*,){11}P' }, user: { $ref: 'http://127.0.0.1:9/user.json' } } };

describe('baram schema check', () => {
  it('an MCP tools/list result: each tool judged alone, every violation with rule and JSON path in the file (en)', async () => {
    const path = await file({ tools: [{ name: 'lookup', inputSchema: good }, { name: 'search', inputSchema: bad }, { name: 'noschema' }] });
    const r = await runCli(['schema', 'check', path, '--lang', 'en']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${path}: 1 of 3 tools admitted, 2 refused`);
    expect(lines).toContain('  OK lookup (2020-12)');
    expect(lines).toContain('  REFUSED search: 3 violations');
    expect(r.stdout).toMatch(/^ {4}\$\.tools\[1\]\.inputSchema\.properties\.q\.pattern: \[nested-unbounded-repeat\] '\(\.\*,\)\{11\}' repeats a part that contains the unbounded quantifier '\.\*'/m);
    expect(r.stdout).toMatch(/^ {4}\$\.tools\[1\]\.inputSchema\.properties\.q\.maxLength: \[pattern-needs-maxlength\] .*Add "maxLength": 256 or less/m);
    expect(r.stdout).toMatch(/^ {4}\$\.tools\[1\]\.inputSchema\.properties\.user\.\$ref: \[remote-ref\] .*Baram never fetches a schema/m);
    expect(r.stdout).toMatch(/^ {4}\$\.tools\[2\]: \[not-a-tool\] A tool entry needs a string name and an inputSchema/m);
  });

  it('in Korean by default', async () => {
    const path = await file([{ name: 'search', inputSchema: bad }]);
    const r = await runCli(['schema', 'check', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${path}: 도구 1개 중 0개 통과, 1개 거부`);
    expect(r.stdout).toMatch(/\$\[0\]\.inputSchema\.properties\.user\.\$ref: \[remote-ref\] 문서 밖을 가리키는 참조/);
  });

  it('a single admitted schema: OK and exit 0', async () => {
    const r = await runCli(['schema', 'check', await file({ $schema: 'http://json-schema.org/draft-07/schema#', ...good }), '--lang', 'en']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^OK .*\n.*1 of 1 tool admitted, 0 refused\n {2}OK s\d+\.json \(draft-07\)/);
  });

  it('--json: the rule, the pointer into the schema and the JSON path into the file, for a JSON-RPC response', async () => {
    const path = await file({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'old', inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } }] } });
    const r = await runCli(['schema', 'check', path, '--json', '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.json()).toEqual({
      file: path,
      tools: [
        {
          name: 'old',
          ok: false,
          violations: [{ rule: 'unknown-dialect', path: '/$schema', jsonPath: '$.result.tools[0].inputSchema.$schema', message: expect.stringMatching(/^\[unknown-dialect\] Unknown \$schema/) }],
        },
      ],
    });
  });

  it('a file that is not JSON: line and column, exit 1; a missing file; no FILE is a usage error (2)', async () => {
    const broken = await runCli(['schema', 'check', await file('{ "type": "object", }x', true), '--lang', 'en']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/1 problem\n {2}\$: Line 1, column \d+: /);
    const missing = await runCli(['schema', 'check', join(base, 'nope.json'), '--lang', 'en']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('Cannot read the schema file (it does not exist)');
    const missingJson = await runCli(['schema', 'check', join(base, 'nope.json'), '--json', '--lang', 'en']);
    expect(missingJson.code).toBe(1);
    expect(missingJson.json()).toEqual({ file: join(base, 'nope.json'), problems: [expect.stringContaining('$: Cannot read the schema file')] });
    const usage = await runCli(['schema', 'check', '--lang', 'en']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: baram schema check FILE [--json] [--lang ko|en]');
  });

  it('a duplicate key is refused (what is checked must be what is used)', async () => {
    const r = await runCli(['schema', 'check', await file('{ "type": "object", "properties": {}, "properties": { "q": { "$ref": "http://x.example/" } } }', true), '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/properties/);
    expect(r.stdout).not.toMatch(/^OK/m);
  });
});
