import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGate, type TestGate } from '../helpers/gate-harness';

/**
 * Issue 14 class 5: writes that amount to execution are denied on every destination a write, move
 * or copy creates, folders' descendants included — script hosts, HTML applications, shortcuts,
 * installers, programs, and every macro-enabled Office document, template and add-in — with every
 * call approved (the attack needed only an approval). Controls: ordinary documents are written,
 * moved and copied.
 *
 * On the old code (7c58b05^) `.vbs .wsf .hta .dotm .xltm .xlam` and most of this list were
 * written, and a folder copy whose tree held `run.vbs` or a `.git` folder was carried out (checked
 * in a worktree of that commit).
 */
const open = useTestGate();

const EXECUTABLE = [
  // the findings
  'a.vbs', 'a.wsf', 'a.hta', 'a.dotm', 'a.xltm', 'a.xlam',
  // script hosts and shells
  'a.bat', 'a.cmd', 'a.ps1', 'a.psm1', 'a.psd1', 'a.vbe', 'a.js', 'a.jse', 'a.wsh', 'a.wsc', 'a.sct', 'a.sh',
  // programs, libraries, consoles, screen savers
  'a.exe', 'a.com', 'a.scr', 'a.pif', 'a.dll', 'a.cpl', 'a.msc', 'a.ocx',
  // shortcuts and location files
  'a.lnk', 'a.url', 'a.scf', 'a.library-ms', 'a.desktop',
  // registry, setup, installers, packages, ClickOnce, gadgets, Java, compiled help
  'a.reg', 'a.inf', 'a.msi', 'a.msp', 'a.mst', 'a.msix', 'a.appx', 'a.appinstaller', 'a.application', 'a.gadget', 'a.jar', 'a.jnlp', 'a.chm',
  // Office macro-enabled documents, templates and add-ins
  'a.xlsm', 'a.xlsb', 'a.xla', 'a.xll', 'a.xlt', 'a.docm', 'a.dot', 'a.wll', 'a.pptm', 'a.potm', 'a.ppsm', 'a.ppam', 'a.ppa', 'a.sldm', 'a.accdb', 'a.accde', 'a.mdb', 'a.vsdm',
  // spellings Windows reads as the same name
  'RUN.VBS', 'x.vbs.', 'x.hta ', 'x.lnk::$DATA', 'dir/Sub/Deck.PPSM',
];

async function deniedWrite(g: TestGate, path: string): Promise<void> {
  const r = await g.call('filesystem.write', { path, content: 'MsgBox "x"' });
  expect({ path, outcome: r.outcome }).toEqual({ path, outcome: 'denied' });
}

describe('class 5: execution-equivalent writes', () => {
  it(`denies writing ${EXECUTABLE.length} execution-equivalent names, writes nothing, and records the rule`, async () => {
    const g = await open();
    for (const p of EXECUTABLE) await deniedWrite(g, p);
    for (const p of EXECUTABLE) expect({ p, exists: existsSync(join(g.workspace, p.replace(/::\$DATA$/, ''))) }).toEqual({ p, exists: false });
    const events = await g.auditEvents();
    const decisions = events.filter((e) => e['type'] === 'permission.decided' && e['tool'] === 'filesystem.write');
    expect(decisions).toHaveLength(EXECUTABLE.length);
    expect(decisions.every((e) => e['decision'] === 'deny' && e['rule'] === 'execution-equivalent-write')).toBe(true);
    expect(events.filter((e) => e['type'] === 'execution.started')).toHaveLength(0);
    expect(g.approvals).toHaveLength(0);
  });

  it('ordinary documents are written (control)', async () => {
    const g = await open();
    for (const p of ['report.txt', 'book.xlsx', 'letter.docx', 'deck.pptx', 'data.csv', 'page.html', 'notes.md', 'config.json']) {
      const r = await g.call('filesystem.write', { path: p, content: 'x' });
      expect({ p, outcome: r.outcome }).toEqual({ p, outcome: 'ok' });
    }
  });

  it('a move or copy whose destination is execution-equivalent is denied', async () => {
    const g = await open({ files: { 'notes.txt': 'MsgBox "x"' } });
    expect((await g.call('filesystem.move', { from: 'notes.txt', to: 'notes.vbs' })).outcome).toBe('denied');
    expect((await g.call('filesystem.copy', { from: 'notes.txt', to: 'app.hta' })).outcome).toBe('denied');
    expect((await g.call('filesystem.copy', { from: 'notes.txt', to: 'Normal.dotm' })).outcome).toBe('denied');
    expect(existsSync(join(g.workspace, 'notes.vbs'))).toBe(false);
    expect(existsSync(join(g.workspace, 'app.hta'))).toBe(false);
    expect(existsSync(join(g.workspace, 'Normal.dotm'))).toBe(false);
    expect(existsSync(join(g.workspace, 'notes.txt'))).toBe(true);
    expect((await g.call('filesystem.copy', { from: 'notes.txt', to: 'notes-copy.txt' })).outcome).toBe('ok');
  });

  it("a folder move or copy whose tree holds an execution-equivalent file or a .git folder is denied; an ordinary folder's is not", async () => {
    const g = await open({
      files: {
        'kit/readme.txt': 'read me',
        'kit/sub/run.vbs': 'MsgBox "x"',
        'proj/a.txt': 'a',
        'proj/.git/config': '[core]\n\tfsmonitor = touch /tmp/x\n',
        'proj/.git/HEAD': 'ref: refs/heads/main\n',
        'docs/a.txt': 'a',
        'docs/sub/b.xlsx': 'b',
      },
    });
    for (const [tool, from, to] of [
      ['filesystem.copy', 'kit', 'kit2'],
      ['filesystem.move', 'kit', 'moved'],
      ['filesystem.copy', 'proj', 'proj2'],
      ['filesystem.move', 'proj', 'archive'],
      ['filesystem.copy', 'kit/sub', 'docs/tools'],
    ] as const) {
      const r = await g.call(tool, { from, to });
      expect({ tool, from, to, outcome: r.outcome }).toEqual({ tool, from, to, outcome: 'denied' });
    }
    expect(existsSync(join(g.workspace, 'kit2'))).toBe(false);
    expect(existsSync(join(g.workspace, 'moved'))).toBe(false);
    expect(existsSync(join(g.workspace, 'proj2'))).toBe(false);
    expect(existsSync(join(g.workspace, 'archive'))).toBe(false);
    expect(existsSync(join(g.workspace, 'docs', 'tools'))).toBe(false);
    expect(existsSync(join(g.workspace, 'kit', 'sub', 'run.vbs'))).toBe(true);
    const events = await g.auditEvents();
    const denials = events.filter((e) => e['type'] === 'permission.decided' && e['decision'] === 'deny');
    expect(denials.map((e) => e['rule'])).toEqual(Array(5).fill('execution-equivalent-write'));
    // Control: a folder of ordinary documents is copied and moved.
    expect((await g.call('filesystem.copy', { from: 'docs', to: 'docs2' })).outcome).toBe('ok');
    expect(existsSync(join(g.workspace, 'docs2', 'sub', 'b.xlsx'))).toBe(true);
    expect((await g.call('filesystem.move', { from: 'docs2', to: 'docs3' })).outcome).toBe('ok');
    expect(existsSync(join(g.workspace, 'docs3', 'a.txt'))).toBe(true);
  });
});
