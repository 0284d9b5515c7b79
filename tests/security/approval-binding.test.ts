import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { appendFile, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { text } from '../../electron/common/i18n';
import { approvalDigest } from '../../electron/main/gate/plan-binding';
import { defineTool, type AnyTool } from '../../tools/kit/define-tool';
import { useTestGate, type TestAnswer } from '../helpers/gate-harness';

/**
 * "What was approved is exactly what runs" as a mechanism (SPEC G-APPROVE, issue 13): the answer
 * names the digest it approves, the gate re-fingerprints every target (device, inode, content)
 * just before the tool runs, and execute's capabilities reach only what the plan names.
 */
const open = useTestGate();

/**
 * Writes `content` in place (same device and inode) and puts size and mtime back exactly, so only
 * the content hash can tell. Throws when the file system cannot restore the time exactly.
 */
async function sameSizeEdit(file: string, content: string): Promise<void> {
  const before = statSync(file);
  // utimes takes seconds as a double: a whole-second mtime (set before planning) is restored exactly.
  expect(Number.isInteger(before.mtimeMs)).toBe(true);
  expect(Buffer.byteLength(content)).toBe(before.size);
  await writeFile(file, content);
  await utimes(file, before.mtimeMs / 1000, before.mtimeMs / 1000);
  const after = statSync(file);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

/** Gives a file a whole-second mtime, which utimes can later put back exactly. */
async function roundTime(file: string): Promise<void> {
  await utimes(file, 1_700_000_000, 1_700_000_000);
}

/** Approves after running `change` (a file edited while the human looked at the dialog). */
const approveAfter = (change: () => Promise<void>) => async (): Promise<TestAnswer> => {
  await change();
  return { choice: 'allow-once', approver: 'test' };
};

describe('the answer binds to the digest', () => {
  it('an answer carrying another digest approves nothing', async () => {
    const g = await open({
      files: { 'a.txt': 'keep\n' },
      approve: () => ({ choice: 'allow-once', approver: 'test', digest: 'f'.repeat(64) }),
    });
    const r = await g.call('filesystem.delete', { path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(r.text).toContain('did not match this request');
    expect(readFileSync(join(g.workspace, 'a.txt'), 'utf8')).toBe('keep\n');
    const events = await g.auditEvents();
    const decided = events.find((e) => e.type === 'approval.decided');
    expect(decided?.data).toMatchObject({ choice: 'deny', approver: 'digest-mismatch', answeredDigest: 'f'.repeat(64) });
    expect(events.some((e) => e.type === 'execution.started')).toBe(false);
  });

  it('an answer for another call approves nothing', async () => {
    const g = await open({ files: { 'a.txt': 'keep\n' }, approve: () => ({ choice: 'allow-once', approver: 'test', callId: 'another-call' }) });
    const r = await g.call('filesystem.delete', { path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'a.txt'))).toBe(true);
  });

  it('the digest covers the plan: the same arguments over another file state give another digest', () => {
    const fp = { type: 'file' as const, size: 5, mtimeMs: 1, dev: 1, ino: 2, sha256: 'a'.repeat(64) };
    const plan = { targets: [{ path: '/w/a.txt', fingerprint: fp }] };
    const base = approvalDigest('filesystem.write', { path: 'a.txt' }, plan);
    expect(approvalDigest('filesystem.write', { path: 'a.txt' }, plan)).toBe(base);
    expect(approvalDigest('filesystem.write', { path: 'a.txt' }, { targets: [{ path: '/w/a.txt', fingerprint: { ...fp, sha256: 'b'.repeat(64) } }] })).not.toBe(base);
    expect(approvalDigest('filesystem.write', { path: 'a.txt' }, { targets: [{ path: '/w/a.txt', fingerprint: { ...fp, ino: 3 } }] })).not.toBe(base);
    expect(approvalDigest('filesystem.write', { path: 'a.txt' }, { ...plan, preview: 'other diff' })).not.toBe(base);
    expect(approvalDigest('http.request', {}, { targets: [], network: { kind: 'url', url: 'http://a/' } })).not.toBe(
      approvalDigest('http.request', {}, { targets: [], network: { kind: 'url', url: 'http://b/' } }),
    );
  });
});

describe('targets are taken again just before the tool runs', () => {
  it('a file added after approval that matches the glob is not touched', async () => {
    const g = await open({
      files: { '다운로드/a.xlsx': 'a', '다운로드/b.xlsx': 'b' },
      approve: approveAfter(() => writeFile(join(g.workspace, '다운로드/late.xlsx'), 'late')),
    });
    const r = await g.call('filesystem.delete', { path: '다운로드/*.xlsx' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals[0]?.targets.map((t) => t.path)).toEqual(['다운로드/a.xlsx', '다운로드/b.xlsx']);
    expect(existsSync(join(g.workspace, '다운로드/late.xlsx'))).toBe(true);
    expect(existsSync(join(g.workspace, '다운로드/a.xlsx'))).toBe(false);
  });

  it('a same-size edit with the mtime put back is reported and not overwritten (content hash)', async () => {
    const g = await open({
      files: { 'a.txt': 'approved text\n' },
      approve: approveAfter(() => sameSizeEdit(join(g.workspace, 'a.txt'), 'APPROVED TEXT\n')),
    });
    await roundTime(join(g.workspace, 'a.txt'));
    const r = await g.call('filesystem.write', { path: 'a.txt', content: 'replacement\n', overwrite: true });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('changed after approval');
    expect(readFileSync(join(g.workspace, 'a.txt'), 'utf8')).toBe('APPROVED TEXT\n');
    const refused = (await g.auditEvents()).find((e) => e.type === 'plan.refused');
    expect(refused?.data).toMatchObject({ reason: 'changed-after-approval' });
  });

  it('the same for an edit', async () => {
    const g = await open({
      files: { 'a.txt': 'keep\nchange me\n' },
      approve: approveAfter(() => sameSizeEdit(join(g.workspace, 'a.txt'), 'KEEP\nchange me\n')),
    });
    await roundTime(join(g.workspace, 'a.txt'));
    const r = await g.call('filesystem.edit', { path: 'a.txt', oldText: 'change me', newText: 'changed' });
    expect(r.outcome).toBe('refused');
    expect(readFileSync(join(g.workspace, 'a.txt'), 'utf8')).toBe('KEEP\nchange me\n');
  });

  it('a target swapped for a link after approval is refused, and what the link points to is untouched', async () => {
    const g = await open({
      files: { 'a.txt': 'approved\n' },
      approve: approveAfter(async () => {
        await writeFile(join(g.outside, 'secret.txt'), 'secret\n');
        await rm(join(g.workspace, 'a.txt'));
        await symlink(join(g.outside, 'secret.txt'), join(g.workspace, 'a.txt'));
      }),
    });
    const r = await g.call('filesystem.delete', { path: 'a.txt' });
    expect(r.outcome).toBe('refused');
    expect(lstatSync(join(g.workspace, 'a.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(g.outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('a file replaced by another with the same size and mtime is caught by device and inode', async () => {
    const g = await open({
      files: { 'a.txt': 'approved\n' },
      approve: approveAfter(async () => {
        const file = join(g.workspace, 'a.txt');
        const before = statSync(file);
        await writeFile(join(g.workspace, 'other.tmp'), 'APPROVED\n');
        await rm(file);
        await rename(join(g.workspace, 'other.tmp'), file);
        await utimes(file, before.mtimeMs / 1000, before.mtimeMs / 1000);
        expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
      }),
    });
    await roundTime(join(g.workspace, 'a.txt'));
    const r = await g.call('filesystem.delete', { path: 'a.txt' });
    expect(r.outcome).toBe('refused');
    expect(readFileSync(join(g.workspace, 'a.txt'), 'utf8')).toBe('APPROVED\n');
  });

  it('of several targets, only the changed one is left alone and the report says so', async () => {
    const g = await open({
      files: { 'd/a.txt': 'a', 'd/b.txt': 'b' },
      approve: approveAfter(() => appendFile(join(g.workspace, 'd/b.txt'), ' edited')),
    });
    const r = await g.call('filesystem.delete', { path: 'd/*.txt' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('left alone: d/b.txt');
    expect(existsSync(join(g.workspace, 'd/a.txt'))).toBe(false);
    expect(readFileSync(join(g.workspace, 'd/b.txt'), 'utf8')).toBe('b edited');
    const started = (await g.auditEvents()).find((e) => e.type === 'execution.started');
    expect(started?.data).toMatchObject({ changedAfterApproval: [join(g.workspace, 'd/b.txt')] });
  });
});

/** An argument-less test tool: only what differs is given. */
function probe(spec: Pick<AnyTool, 'name' | 'risk' | 'capabilities' | 'execute'> & Partial<Pick<AnyTool, 'plan' | 'precheck'>>): AnyTool {
  return defineTool({
    description: text('시험 도구', 'test tool'),
    keywords: [],
    input: Type.Object({}, { additionalProperties: false }),
    subject: null,
    concurrency: 'exclusive',
    summarize: () => text('시험', 'Test'),
    ...spec,
  });
}

/** Test tools that misbehave on purpose: what stops them must be the capability, not their own code. */
function overreachingTools(): AnyTool[] {
  return [
    probe({
      name: 'test.overreach',
      risk: 'write',
      capabilities: ['files'],
      plan: async (_args, ctx) => ({ targets: [{ path: ctx.files.resolve('planned.txt'), fingerprint: null }] }),
      async execute(_args, ctx) {
        await ctx.files.writeAtomic('planned.txt', 'ok', { overwrite: false });
        await ctx.files.writeAtomic('unplanned.txt', 'sneaked in', { overwrite: false });
        return { outcome: 'ok', text: 'wrote both' };
      },
    }),
    probe({
      name: 'test.undeclared',
      risk: 'read',
      capabilities: ['files'],
      async execute(_args, ctx) {
        await ctx.processes.run({ command: 'git', args: ['status'], cwd: ctx.files.roots[0]! });
        return { outcome: 'ok', text: 'ran a program' };
      },
    }),
    probe({
      name: 'test.precheckwrite',
      risk: 'read',
      capabilities: ['files'],
      async precheck(_args, ctx) {
        // The types forbid this; the object handed over must not have the method either.
        await (ctx.files as unknown as { writeAtomic(p: string, d: string, o: object): Promise<void> }).writeAtomic('from-precheck.txt', 'x', { overwrite: false });
        return null;
      },
      execute: async () => ({ outcome: 'ok', text: 'done' }),
    }),
    probe({
      name: 'test.wrongurl',
      risk: 'network',
      capabilities: ['http'],
      plan: async () => ({ targets: [], destination: 'http://127.0.0.1:9/planned', network: { kind: 'url', url: 'http://127.0.0.1:9/planned' } }),
      async execute(_args, ctx) {
        await ctx.http.request({ url: 'http://127.0.0.1:9/other', method: 'GET', signal: ctx.signal });
        return { outcome: 'ok', text: 'requested' };
      },
    }),
  ];
}

describe('execute reaches only what the plan names', () => {
  it('a write outside the plan is refused by the file capability', async () => {
    const g = await open({ tools: overreachingTools() });
    const r = await g.call('test.overreach', {});
    expect(r.outcome).toBe('error');
    expect(existsSync(join(g.workspace, 'planned.txt'))).toBe(true);
    expect(existsSync(join(g.workspace, 'unplanned.txt'))).toBe(false);
    const finished = (await g.auditEvents()).find((e) => e.type === 'execution.finished');
    expect(String((finished?.data as { crash?: string }).crash)).toContain('not among the approved targets');
  });

  it('a capability the tool did not declare is absent', async () => {
    const g = await open({ tools: overreachingTools() });
    const r = await g.call('test.undeclared', {});
    expect(r.outcome).toBe('error');
    const finished = (await g.auditEvents()).find((e) => e.type === 'execution.finished');
    expect(String((finished?.data as { crash?: string }).crash)).toContain("did not declare the 'processes' capability");
  });

  it('precheck gets a file access without write methods at run time', async () => {
    const g = await open({ tools: overreachingTools() });
    await g.call('test.precheckwrite', {});
    expect(existsSync(join(g.workspace, 'from-precheck.txt'))).toBe(false);
    const failed = (await g.auditEvents()).find((e) => e.type === 'precheck.failed');
    expect(String((failed?.data as { error?: string }).error)).toContain('writeAtomic is not a function');
  });

  it('a request to a URL other than the planned one is refused by the http capability', async () => {
    const g = await open({ tools: overreachingTools(), policy: { http: { allow: ['http://127.0.0.1:9/'] } } });
    const r = await g.call('test.wrongurl', {});
    expect(r.outcome).toBe('error');
    expect(g.approvals[0]?.destination).toBe('http://127.0.0.1:9/planned');
    const finished = (await g.auditEvents()).find((e) => e.type === 'execution.finished');
    expect(String((finished?.data as { crash?: string }).crash)).toContain('not http://127.0.0.1:9/other');
  });
});
