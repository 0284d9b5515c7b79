import { mkdtemp, mkdir, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { createTestGate, type TestGate } from '../helpers/gate-harness';

/**
 * Must show (issue #2): every path escape is denied with exit 3 and nothing outside the roots is
 * read or written. The secret's content must never appear in what the model would see.
 */
const SECRET = 'TOP-SECRET-3f9a';
let base: string;
let ws: string;
let data: string;
let outside: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-escape-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  outside = join(base, 'outside');
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), SECRET);
  await writeFile(join(ws, 'ok.txt'), 'fine');
  await symlink(join(outside, 'secret.txt'), join(ws, 'link-to-secret.txt'));
  await symlink(outside, join(ws, 'link-to-outside-dir'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Paths depend on the temp folders made in beforeAll, so each case computes its path lazily. */
const ESCAPES: Array<[string, () => string]> = [
  ['dot-dot', () => '../outside/secret.txt'],
  ['absolute outside the root', () => join(outside, 'secret.txt')],
  ['symlinked file pointing outside', () => 'link-to-secret.txt'],
  ['symlinked folder pointing outside', () => 'link-to-outside-dir/secret.txt'],
  ['tilde trick', () => `~/${relative(homedir(), join(outside, 'secret.txt'))}`],
  ['tilde dot-dot', () => '~/../../../../../../../../etc/passwd'],
  ['NUL byte', () => 'ok.txt\u0000../../outside/secret.txt'],
  ['Windows-style dot-dot', () => '..\\outside\\secret.txt'],
  ['dot-dot after a real folder', () => 'sub/../../outside/secret.txt'],
];

describe('path escapes through the CLI: exit 3, nothing read', () => {
  it.each(ESCAPES)('%s', async (_name, pathOf) => {
    const path = pathOf();
    const r = await runCli(['call', 'filesystem.read', JSON.stringify({ path }), '--workspace', ws, '--data-dir', data, '--approve', 'all', '--lang', 'en']);
    expect(r.code).toBe(3);
    const out = r.json<{ outcome: string; text: string }>();
    expect(out.outcome).toBe('denied');
    expect(out.text).not.toContain(SECRET);
    expect(r.stdout).not.toContain(SECRET);
  });
});

describe('path escapes for writes, moves and deletes: denied, nothing outside changes', () => {
  let gate: TestGate;
  beforeAll(async () => {
    gate = await createTestGate({ files: { 'ok.txt': 'fine' } });
    await symlink(gate.outside, join(gate.workspace, 'out-link'));
    await writeFile(join(gate.outside, 'secret.txt'), SECRET);
  });
  afterAll(async () => gate.close());

  const attempts = (o: string): Array<[string, Record<string, unknown>]> => [
    ['filesystem.write', { path: '../outside/new.txt', content: 'x' }],
    ['filesystem.write', { path: join(o, 'new.txt'), content: 'x' }],
    ['filesystem.write', { path: 'out-link/new.txt', content: 'x' }],
    ['filesystem.write', { path: '..\\outside\\new.txt', content: 'x' }],
    ['filesystem.edit', { path: 'out-link/secret.txt', oldText: 'TOP', newText: 'NOT' }],
    ['filesystem.move', { from: 'ok.txt', to: '../outside/moved.txt' }],
    ['filesystem.copy', { from: 'out-link/secret.txt', to: 'stolen.txt' }],
    ['filesystem.delete', { path: 'out-link/secret.txt' }],
    ['filesystem.mkdir', { path: '../outside/newdir' }],
    ['filesystem.list', { path: 'out-link' }],
    ['search.text', { pattern: 'SECRET', path: '..' }],
  ];

  it('every attempt is blocked by the gate and the outside folder is untouched', async () => {
    for (const [tool, args] of attempts(gate.outside)) {
      const r = await gate.call(tool, args);
      expect({ tool, args, outcome: r.outcome }).toEqual({ tool, args, outcome: 'denied' });
      expect(r.text).not.toContain(SECRET);
    }
    expect((await readdir(gate.outside)).sort()).toEqual(['secret.txt']);
    expect((await readdir(gate.workspace)).sort()).toEqual(['ok.txt', 'out-link']);
  });
});
