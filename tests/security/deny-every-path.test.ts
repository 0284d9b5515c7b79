import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { useTestGate } from '../helpers/gate-harness';

/**
 * Issue 14 class 3: deny (and ask) rules hold for every path a tool reads, lists or writes, not
 * only the path it names. Real gate, real host files, real ledger.
 */
const NFC = '인사';
const NFD = NFC.normalize('NFD');

const open = useTestGate({
  policy: { rules: { deny: ['filesystem.*(**/인사/**)', 'search.text(**/인사/**)'] } },
  files: {
    'dept/인사/salary.txt': 'PAYROLL-SECRET 김철수 9000\n',
    'dept/public/notice.txt': 'PAYROLL-NOTICE all staff\n',
  },
});

function ledgerText(events: readonly Record<string, unknown>[]): string {
  return JSON.stringify(events);
}

describe('deny rules hold for paths a tree walk reaches (issue 14 class 3)', () => {
  it('search.text over the parent does not print the denied folder, and says what it skipped', async () => {
    const g = await open();
    const r = await g.call('search.text', { pattern: 'PAYROLL', path: '.' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('PAYROLL-NOTICE'); // positive control: the rest is searched
    expect(r.text).not.toContain('PAYROLL-SECRET');
    expect(r.text).not.toContain('salary');
    expect(r.text).toMatch(/skipped by policy/);
    expect(ledgerText(await g.auditEvents())).not.toContain('PAYROLL-SECRET');
    expect(g.approvals).toHaveLength(0);
  });

  it('search.text naming the denied folder is denied (control of the named-path rule)', async () => {
    const g = await open();
    const r = await g.call('search.text', { pattern: 'PAYROLL', path: 'dept/인사' });
    expect(r.outcome).toBe('denied');
    expect(r.text ?? '').not.toContain('PAYROLL-SECRET');
  });

  it('filesystem.list recursive does not show the names inside the denied folder', async () => {
    const g = await open();
    const r = await g.call('filesystem.list', { path: '.', recursive: true });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('notice.txt');
    expect(r.text).not.toContain('salary.txt');
    expect(r.text).toMatch(/skipped by policy/);
    expect(ledgerText(await g.auditEvents())).not.toContain('salary.txt');
  });

  it('filesystem.search does not find names inside the denied folder', async () => {
    const g = await open();
    for (const args of [{ namePattern: '*.txt' }, { namePattern: '' }]) {
      const r = await g.call('filesystem.search', args);
      expect(r.outcome).toBe('ok');
      expect(r.text).toContain('notice.txt');
      expect(r.text).not.toContain('salary.txt');
    }
  });
});

describe('a folder copy, move or delete whose tree a deny rule covers is refused (issue 14 class 3)', () => {
  it('copying the parent is denied, nothing is copied, and the copy cannot be read', async () => {
    const g = await open();
    const r = await g.call('filesystem.copy', { from: 'dept', to: 'copied' });
    expect(r.outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'copied'))).toBe(false);
    // Positive control: a folder without denied descendants copies.
    const ok = await g.call('filesystem.copy', { from: 'dept/public', to: 'public-copy' });
    expect(ok.outcome).toBe('ok');
    expect(existsSync(join(g.workspace, 'public-copy/notice.txt'))).toBe(true);
    const events = await g.auditEvents();
    expect(events.some((e) => e.type === 'permission.decided' || JSON.stringify(e).includes('filesystem.*(**/인사/**)'))).toBe(true);
  });

  it('moving the parent is denied and the files stay where the rule covers them', async () => {
    const g = await open();
    const r = await g.call('filesystem.move', { from: 'dept', to: 'moved' });
    expect(r.outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'dept/인사/salary.txt'))).toBe(true);
    expect(existsSync(join(g.workspace, 'moved'))).toBe(false);
  });

  it('deleting the parent is denied; the denied file is still there; a clean folder deletes', async () => {
    const g = await open();
    const r = await g.call('filesystem.delete', { path: 'dept' });
    expect(r.outcome).toBe('denied');
    expect(r.text).toContain('인사');
    expect(existsSync(join(g.workspace, 'dept/인사/salary.txt'))).toBe(true);
    expect(JSON.stringify(await g.auditEvents())).toContain('filesystem.*(**/인사/**)');
    const ok = await g.call('filesystem.delete', { path: 'dept/public' });
    expect(ok.outcome).toBe('ok');
    expect(existsSync(join(g.workspace, 'dept/public'))).toBe(false);
  });
});

describe('rules match Unicode-normalised (NFC) names (issue 14 class 3)', () => {
  it('an NFD spelling of 인사 is denied by the NFC rule, in the named path and in walks', async () => {
    const g = await open({
      files: {
        [`hr/${NFD}/pay.txt`]: 'NFD-SECRET\n',
        'hr/open/readme.txt': 'NFD-OPEN\n',
      },
    });
    const read = await g.call('filesystem.read', { path: `hr/${NFD}/pay.txt` });
    expect(read.outcome).toBe('denied');
    expect(read.text ?? '').not.toContain('NFD-SECRET');
    const control = await g.call('filesystem.read', { path: 'hr/open/readme.txt' });
    expect(control.outcome).toBe('ok');
    expect(control.text).toContain('NFD-OPEN');
    const search = await g.call('search.text', { pattern: 'NFD-', path: 'hr' });
    expect(search.text).toContain('NFD-OPEN');
    expect(search.text).not.toContain('NFD-SECRET');
    expect(JSON.stringify(await g.auditEvents())).not.toContain('NFD-SECRET');
  });
});

describe('an NFD-spelled folder inside a copied, moved or deleted parent (issue 14 class 3)', () => {
  const nfdFiles = { [`hr/${NFD}/pay.txt`]: 'NFD-SECRET\n', 'hr/open/readme.txt': 'NFD-OPEN\n' };

  it('copying the parent is denied and nothing is copied', async () => {
    const g = await open({ files: nfdFiles });
    const r = await g.call('filesystem.copy', { from: 'hr', to: 'hr-copy' });
    expect(r.outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'hr-copy'))).toBe(false);
    const events = await g.auditEvents();
    expect(events.some((e) => e.type === 'permission.decided' && e.decision === 'deny' && e.rule === 'filesystem.*(**/인사/**)')).toBe(true);
  });

  it('moving or deleting the parent is denied and the file stays', async () => {
    const g = await open({ files: nfdFiles });
    expect((await g.call('filesystem.move', { from: 'hr', to: 'elsewhere' })).outcome).toBe('denied');
    expect((await g.call('filesystem.delete', { path: 'hr' })).outcome).toBe('denied');
    expect(existsSync(join(g.workspace, `hr/${NFD}/pay.txt`))).toBe(true);
    // Positive control: the folder without a denied descendant moves.
    expect((await g.call('filesystem.move', { from: 'hr/open', to: 'open-moved' })).outcome).toBe('ok');
    expect(existsSync(join(g.workspace, 'open-moved/readme.txt'))).toBe(true);
  });
});

describe('ask rules hold in walks too (issue 14 class 3)', () => {
  const openAsk = useTestGate({
    policy: { rules: { ask: ['search.text(**/기밀/**)'] } },
    files: { 'docs/기밀/plan.txt': 'ASK-HIDDEN\n', 'docs/open.txt': 'ASK-OPEN\n' },
  });

  it('a walk over the parent skips what an ask rule covers (it cannot stop to ask), without asking', async () => {
    const g = await openAsk();
    const r = await g.call('search.text', { pattern: 'ASK-', path: 'docs' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('ASK-OPEN');
    expect(r.text).not.toContain('ASK-HIDDEN');
    expect(r.text).toContain('1 items skipped by policy');
    expect(g.approvals).toHaveLength(0);
  });

  it('naming the folder asks, and once approved under that rule the search reads it', async () => {
    const g = await openAsk();
    const r = await g.call('search.text', { pattern: 'ASK-', path: 'docs/기밀' });
    expect(g.approvals).toHaveLength(1);
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('ASK-HIDDEN');
  });
});
