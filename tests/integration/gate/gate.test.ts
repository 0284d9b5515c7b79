import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../../electron/main/audit';
import { AuditLedger } from '../../../electron/main/audit/writer';
import { auditDir } from '../../../electron/main/runtime/session';
import type { AuditEventInput, AuditSink } from '../../../electron/common/audit-events';
import { createTestGate, useTestGate } from '../../helpers/gate-harness';
import { resetSeen, seen, testTools } from './test-tools';

const open = useTestGate({ tools: testTools, files: { 'a.txt': 'hello' } });
beforeEach(resetSeen);

describe('SPEC G-SCHEMA messages (verbatim)', () => {
  it('reports a missing required parameter with its type', async () => {
    const g = await open();
    const r = await g.call('probe.read', {});
    expect(r.outcome).toBe('invalid');
    expect(r.text).toBe("Parameter 'file_path' is required (string). The tool was not executed.");
    expect(seen.runs).toBe(0);
  });

  it('reports a wrong type', async () => {
    const g = await open();
    const r = await g.call('probe.read', { file_path: 'a.txt', count: 'three' });
    expect(r.text).toBe("Parameter 'count' must be an integer. The tool was not executed.");
  });

  it('reports an enum violation echoing only that value', async () => {
    const g = await open();
    const r = await g.call('probe.read', { file_path: 'a.txt', kind: 'c' });
    expect(r.text).toBe("Parameter 'kind' must be one of [a, b], but was 'c'. The tool was not executed.");
  });

  it('suggests the intended name for a typo', async () => {
    const g = await open();
    const r = await g.call('probe.read', { file_paht: 'a.txt' });
    expect(r.outcome).toBe('invalid');
    expect(r.text).toContain("Unknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed.");
    expect(r.text).toContain("Parameter 'file_path' is required (string). The tool was not executed.");
  });

  it('adds a Korean gloss under the verbatim message in a Korean session', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('probe.read', { file_path: 'a.txt', count: 1.5 });
    expect(r.text.split('\n')[0]).toBe("Parameter 'count' must be an integer. The tool was not executed.");
    expect(r.text).toMatch(/인자가 도구 형식과 맞지 않아/);
  });

  it('WARN mode records the violation and still runs the tool', async () => {
    const g = await open({ policy: { schemaValidation: { builtin: 'warn' } } });
    const r = await g.call('probe.read', { file_path: 'a.txt', count: 'x' });
    expect(r.outcome).toBe('ok');
    const events = await g.auditEvents();
    expect(events.some((e) => e.type === 'schema.violation')).toBe(true);
  });
});

describe('SPEC G-NULL: JSON null means absent', () => {
  it('drops null-valued keys before any layer sees them', async () => {
    const g = await open();
    const r = await g.call('probe.read', { file_path: 'a.txt', count: null, mode: null });
    expect(r.outcome).toBe('ok');
    expect(seen.inputs[0]).toEqual({ file_path: 'a.txt' });
  });

  it('a null required parameter is reported as missing, not as a crash', async () => {
    const g = await open();
    const r = await g.call('probe.read', { file_path: null });
    expect(r.text).toBe("Parameter 'file_path' is required (string). The tool was not executed.");
  });

  it('non-object arguments are invalid with a signpost', async () => {
    const g = await open();
    for (const args of [null, 'a.txt', [1], 3]) {
      const r = await g.call('probe.read', args);
      expect(r.outcome).toBe('invalid');
      expect(r.text).toMatch(/must be a JSON object/);
    }
  });
});

describe('SPEC G-ORDER and G-PERM in the gate', () => {
  it('a denied tool reveals nothing about its parameters', async () => {
    const g = await open({ policy: { rules: { deny: ['probe.*'] } } });
    const r = await g.call('probe.read', { file_paht: 1 });
    expect(r.outcome).toBe('denied');
    expect(r.text).not.toMatch(/file_path|Parameter/);
    expect(r.decision).toMatchObject({ decision: 'deny', rule: 'probe.*', source: 'admin' });
  });

  it('an unknown tool is denied with a did-you-mean signpost', async () => {
    const g = await open();
    const r = await g.call('probe.reed', { file_path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(r.text).toContain("'probe.read'");
  });
});

describe('SPEC G-PRECHECK', () => {
  it('a refusal comes before approval: the human is never asked', async () => {
    const g = await open();
    const r = await g.call('probe.precheck', { behaviour: 'refuse' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toBe('Not whitelisted. Use filesystem.list instead.');
    expect(g.approvals).toHaveLength(0);
    expect(seen.runs).toBe(0);
  });

  it('a throwing precheck is logged and the call continues to approval', async () => {
    const g = await open();
    const r = await g.call('probe.precheck', { behaviour: 'throw' });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    const events = await g.auditEvents();
    expect(events.find((e) => e.type === 'precheck.failed')?.data).toMatchObject({ error: 'Error: precheck is broken' });
  });
});

describe('SPEC G-APPROVE', () => {
  it('deny with a reason returns the reason to the model and runs nothing', async () => {
    const g = await open({ approve: () => ({ choice: 'deny', reason: '그 파일은 건드리지 마세요', approver: 'kim' }) });
    const r = await g.call('probe.write', { file_path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(r.text).toContain('그 파일은 건드리지 마세요');
    expect(seen.runs).toBe(0);
  });

  it('no approver available → deny', async () => {
    const g = await open({ approve: 'none' });
    const r = await g.call('probe.write', { file_path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(r.text).toMatch(/no approver/);
  });

  it('an unanswered approval times out to deny', async () => {
    const g = await open({ policy: { approval: { timeoutSeconds: 1 } }, approve: () => new Promise(() => {}) });
    const started = Date.now();
    const r = await g.call('probe.write', { file_path: 'a.txt' });
    expect(r.outcome).toBe('denied');
    expect(r.text).toMatch(/within 1 s/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(seen.runs).toBe(0);
    const decided = (await g.auditEvents()).find((e) => e.type === 'approval.decided');
    expect(decided?.data).toMatchObject({ choice: 'deny', approver: 'timeout' });
  });

  it('Stop during approval cancels', async () => {
    const g = await open({ approve: () => new Promise(() => {}) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await g.call('probe.write', { file_path: 'a.txt' }, controller.signal);
    expect(r.outcome).toBe('cancelled');
    expect(seen.runs).toBe(0);
  });

  it('allow for this session covers the same tool and subject, not another file', async () => {
    const g = await open({ files: { 'a.txt': 'a', 'b.txt': 'b' }, approve: () => ({ choice: 'allow-session', approver: 'kim' }) });
    expect((await g.call('probe.write', { file_path: 'a.txt' })).outcome).toBe('ok');
    expect((await g.call('probe.write', { file_path: 'a.txt' })).outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    expect((await g.call('probe.write', { file_path: 'b.txt' })).outcome).toBe('ok');
    expect(g.approvals).toHaveLength(2);
  });

  it('the approval request carries summary, risk, exact args, rule and a digest', async () => {
    const g = await open();
    await g.call('probe.write', { file_path: 'a.txt', big: null });
    const req = g.approvals[0]!;
    expect(req).toMatchObject({ tool: 'probe.write', risk: 'write', args: { file_path: 'a.txt' }, rule: 'defaults.write', ruleSource: 'builtin' });
    expect(req.summary.ko).toBe('a.txt에 씁니다');
    expect(req.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('SPEC G-NOTHROW and audit', () => {
  it('a throwing tool becomes outcome error, without internal details', async () => {
    const g = await open();
    const r = await g.call('probe.crash', {});
    expect(r.outcome).toBe('error');
    expect(r.text).not.toMatch(/boom/);
    const finished = (await g.auditEvents()).find((e) => e.type === 'execution.finished');
    expect(finished?.data).toMatchObject({ crash: expect.stringContaining('boom') });
  });

  it('caps long output with the marker after the cut', async () => {
    const g = await open({ policy: { shell: { maxOutputChars: 1000 } } });
    const r = await g.call('probe.write', { file_path: 'a.txt', big: true });
    expect(r.outcome).toBe('ok');
    expect(r.text.startsWith('x'.repeat(1000))).toBe(true);
    expect(r.text).toMatch(/\n\[output truncated: showing the first 1000 of 50000 characters; narrow the request to see more\]$/);
  });

  it('records every step in order and reports the last sequence number', async () => {
    const g = await open();
    const r = await g.call('probe.write', { file_path: 'a.txt' });
    const events = (await g.auditEvents()).filter((e) => e.callId === r.callId);
    expect(events.map((e) => e.type)).toEqual([
      'tool.proposed',
      'permission.decided',
      'approval.requested',
      'approval.decided',
      'execution.started',
      'execution.finished',
    ]);
    expect(r.auditSeq).toBe(events.at(-1)!.seq);
    expect(events[1]).toMatchObject({ decision: 'ask', rule: 'defaults.write', ruleSource: 'builtin', actionClass: '수정' });
  });

  it('does not run the tool when the intent row cannot be written', async () => {
    let writes = 0;
    const failing: AuditSink = {
      async append(e: AuditEventInput) {
        if (e.type === 'execution.started') throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        return ++writes;
      },
      async close() {},
    };
    const g = await open({ audit: failing });
    const r = await g.call('probe.write', { file_path: 'a.txt' });
    expect(r.outcome).toBe('error');
    expect(r.text).toMatch(/audit record could not be written/);
    expect(seen.runs).toBe(0);
  });
});

describe('blank optional paths behave like omitted ones', () => {
  it('search.text and filesystem.search with path "" search the workspace root', async () => {
    const g = await open({ tools: undefined, files: { 'docs/a.txt': 'needle here' } });
    const search = await g.call('search.text', { pattern: 'needle', path: '' });
    expect(search.outcome).toBe('ok');
    expect(search.text).toContain('docs/a.txt:1:');
    const names = await g.call('filesystem.search', { path: '', namePattern: '' });
    expect(names.outcome).toBe('ok');
    expect(names.text).toContain('docs/a.txt');
  });

  it('a blank required path is refused by the tool before approval, with a signpost', async () => {
    const g = await open({ tools: undefined });
    const r = await g.call('filesystem.write', { path: ' ', content: 'x' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toMatch(/path is empty/);
    expect(g.approvals).toHaveLength(0);
  });
});

describe('the real ledger behind the gate', () => {
  it('records every call in a chain that verifies', async () => {
    const g = await open();
    await g.call('probe.write', { file_path: 'a.txt' });
    await g.call('probe.read', { file_path: 'missing-param-typo', count: 'x' });
    expect(verifyLedger(auditDir(g.session.dataDir))).toMatchObject({ ok: true });
  });

  it('refuses to run a tool when the ledger is full, and says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baram-full-ledger-'));
    const ledger = AuditLedger.open(join(dir, 'audit'), { sessionId: 's', osUser: 'u', appUser: 'u', hostId: 'h' }, { maxPages: 16 });
    const g = await createTestGate({ tools: testTools, files: { 'a.txt': 'hello' }, audit: ledger });
    try {
      // Fill the ledger to its cap (SQLite then fails writes with SQLITE_FULL, as a full disk does).
      await expect(
        (async () => {
          for (;;) await ledger.append({ type: 'request', data: { prompt: '가'.repeat(500) } });
        })(),
      ).rejects.toThrow(/full/i);
      const r = await g.call('probe.write', { file_path: 'a.txt' });
      expect(r.outcome).toBe('error');
      expect(r.text).toMatch(/audit record could not be written, so the tool was not run/);
      expect(seen.runs).toBe(0);
      // Even the session's stop cannot be recorded; closing says so instead of pretending.
      await expect(g.close()).rejects.toThrow(/full/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
