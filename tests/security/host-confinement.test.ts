import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileAccess, createPathRules } from '../../electron/main/host/files';
import { Confiner } from '../../electron/main/host/files/confine';
import { readChecked } from '../../electron/main/host/files/read';
import { allNames, codeOf, collect, makeSandbox, type Sandbox } from '../unit/host/sandbox';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  await writeFile(path.join(box.ws, 'a.txt'), 'inside');
  // Links a model could meet in an unpacked archive or a cloned repository:
  await symlink(box.secret, path.join(box.ws, 'leak.txt')); // file link → outside
  await symlink(box.outside, path.join(box.ws, 'outdir')); // folder link → outside
  await symlink(path.join(box.outside, 'planted.txt'), path.join(box.ws, 'dangling.txt')); // → outside, not there yet
  await symlink(box.protectedInside, path.join(box.ws, 'sneaky')); // → protected folder inside
  await symlink(box.auditDir, path.join(box.ws, 'audit-link')); // → protected folder outside
  await symlink(box.trashDir, path.join(box.ws, 'trash-link')); // → Baram's trash
});
afterEach(async () => {
  await box.cleanup();
});

async function outsideUntouched(): Promise<void> {
  expect(await readdir(box.outside)).toEqual(['secret.txt']);
  expect(await readFile(box.secret, 'utf8')).toBe('TOP SECRET');
}

describe('escapes by path', () => {
  const escapes = (b: Sandbox): string[] => [
    '../outside/secret.txt',
    'x/../../outside/secret.txt',
    b.secret,
    '~/../outside/secret.txt',
    '~',
    '/etc/passwd',
  ];

  it('refuses every method, naming the path as given', async () => {
    for (const p of escapes(box)) {
      await expect(box.files.readBytes(p)).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS', path: p });
      expect(await codeOf(box.files.check(p))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.stat(p))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.fingerprint(p))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.writeAtomic(p, 'x', { overwrite: true }))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.list(p))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(collect(box.files.walk(p)))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.glob(p))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.mkdir(`${p}/new`))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.trash(p))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.move(p, 'stolen.txt'))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.copy(p, 'stolen.txt'))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.move('a.txt', `${p}/moved`))).toBe('OUTSIDE_ROOTS');
      expect(await codeOf(box.files.copy('a.txt', `${p}/copied`))).toBe('OUTSIDE_ROOTS');
    }
    expect(await codeOf(box.files.glob(path.join(box.outside, '*.txt')))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.glob('../outside/**'))).toBe('OUTSIDE_ROOTS');
    expect(await readFile(path.join(box.ws, 'a.txt'), 'utf8')).toBe('inside');
    await outsideUntouched();
  });

  it('refuses NUL bytes and empty paths everywhere', async () => {
    for (const p of ['a.txt\0.png', '', '   ']) {
      expect(await codeOf(box.files.readBytes(p))).toBe('INVALID_PATH');
      expect(await codeOf(box.files.writeAtomic(p, 'x', { overwrite: true }))).toBe('INVALID_PATH');
      expect(await codeOf(box.files.stat(p))).toBe('INVALID_PATH');
      expect(await codeOf(box.files.glob(p))).toBe('INVALID_PATH');
      expect(await codeOf(box.files.trash(p))).toBe('INVALID_PATH');
    }
    expect(() => box.files.resolve('a\0')).toThrow(/INVALID_PATH/);
  });

  it('folds ..\\ on Windows before the containment check (lexical rules)', () => {
    const win = createPathRules({ platform: 'win32', home: 'C:\\Users\\kim' });
    const root = 'C:\\Users\\kim\\Documents\\Baram';
    for (const p of ['..\\..\\AppData\\Roaming\\Baram\\policy.json', 'a\\..\\..\\x', 'a/..\\../x', 'C:\\Windows', '\\Windows', '~\\x']) {
      expect(win.isInside(win.resolve(p, root), root)).toBe(false);
    }
    expect(win.isInside(win.resolve('a\\..\\B\\c.txt', root), root)).toBe(true);
    expect(win.isInside(win.resolve('c:\\users\\KIM\\documents\\baram\\x', root), root)).toBe(true);
  });
});

describe('escapes by symlink', () => {
  it('refuses content through a link to an outside file, but may name the link itself', async () => {
    await expect(box.files.readBytes('leak.txt')).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS', path: 'leak.txt' });
    expect(await codeOf(box.files.check('leak.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.writeAtomic('leak.txt', 'pwned', { overwrite: true }))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.copy('leak.txt', 'copy.txt'))).toBe('FORBIDDEN');
    expect(await codeOf(box.files.glob('leak.txt'))).toBe('no error'); // the entry exists in the workspace
    expect((await box.files.stat('leak.txt'))?.type).toBe('symlink');
    await outsideUntouched();
  });

  it('refuses anything below a link to an outside folder', async () => {
    expect(await codeOf(box.files.readBytes('outdir/secret.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.stat('outdir/secret.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.writeAtomic('outdir/new.txt', 'x', { overwrite: false }))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.mkdir('outdir/sub/deeper'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.list('outdir'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(collect(box.files.walk('outdir')))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.glob('outdir/*.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.move('a.txt', 'outdir/a.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.copy('a.txt', 'outdir/a.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.move('outdir/secret.txt', 'stolen.txt'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.trash('outdir/secret.txt'))).toBe('OUTSIDE_ROOTS');
    await outsideUntouched();
  });

  it('refuses a dangling link whose target would be created outside', async () => {
    expect(await codeOf(box.files.writeAtomic('dangling.txt', 'planted', { overwrite: true }))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.check('dangling.txt'))).toBe('OUTSIDE_ROOTS');
    await outsideUntouched();
  });

  it('never follows links in list, walk or glob', async () => {
    const listed = await box.files.list('.', { recursive: true });
    expect(listed.every((e) => e.path.startsWith(box.ws))).toBe(true);
    expect(listed.find((e) => e.path.endsWith('outdir'))?.type).toBe('symlink');
    const walked = await collect(box.files.walk('.', { includeHidden: true, respectIgnoreFiles: false }));
    expect(walked.map((e) => path.relative(box.ws, e.path))).toEqual(['a.txt']);
    const globbed = await box.files.glob('**/*.txt');
    expect(globbed.map((p) => path.relative(box.ws, p))).toEqual(['a.txt', 'dangling.txt', 'leak.txt']);
    expect(globbed.some((p) => p.includes('secret'))).toBe(false);
  });

  it('refuses copying a folder that holds a link leading outside, before writing anything', async () => {
    await mkdir(path.join(box.ws, 'proj', 'lib'), { recursive: true });
    await writeFile(path.join(box.ws, 'proj', 'readme.md'), 'hi');
    await symlink('../../../outside', path.join(box.ws, 'proj', 'lib', 'vendor'));
    await expect(box.files.copy('proj', 'proj-copy')).rejects.toMatchObject({ code: 'FORBIDDEN', path: 'proj/lib/vendor' });
    expect((await readdir(box.ws)).filter((n) => n.startsWith('proj-copy') || n.includes('baram-tmp'))).toEqual([]);
    // A relative link that is fine where it is can lead outside from a new place: judged at the destination.
    await rm(path.join(box.ws, 'proj', 'lib', 'vendor'));
    await symlink('../a.txt', path.join(box.ws, 'proj', 'up.txt')); // proj/up.txt → ws/a.txt
    await mkdir(path.join(box.ws, 'deep', 'er'), { recursive: true });
    await box.files.copy('proj/up.txt', 'deep/er/up.txt'); // → ws/deep/a.txt: still inside
    await expect(box.files.copy('proj/up.txt', 'up.txt')).rejects.toMatchObject({ code: 'FORBIDDEN' }); // → ../a.txt: outside
  });
});

describe('protected paths', () => {
  it('refuses the protected folder inside the workspace in every spelling', async () => {
    for (const p of ['.baram-audit/ledger.db', 'x/../.baram-audit/ledger.db', path.join(box.protectedInside, 'ledger.db'), 'sneaky/ledger.db']) {
      await expect(box.files.readBytes(p)).rejects.toMatchObject({ code: 'FORBIDDEN', path: p });
      expect(await codeOf(box.files.writeAtomic(p, 'x', { overwrite: true }))).toBe('FORBIDDEN');
      expect(await codeOf(box.files.trash(p))).toBe('FORBIDDEN');
      expect(await codeOf(box.files.copy(p, 'ledger-copy.db'))).toBe('FORBIDDEN');
    }
    expect(await codeOf(box.files.trash('.baram-audit'))).toBe('FORBIDDEN');
    expect(await codeOf(box.files.move('.baram-audit', 'audit-moved'))).toBe('FORBIDDEN');
    expect(await codeOf(box.files.list('sneaky'))).toBe('FORBIDDEN');
    expect(await readFile(path.join(box.protectedInside, 'ledger.db'), 'utf8')).toBe('ledger');
  });

  it('refuses the audit folder and the trash through links (they lie outside the roots)', async () => {
    expect(await codeOf(box.files.writeAtomic('audit-link/evil.db', 'x', { overwrite: false }))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.list('trash-link'))).toBe('OUTSIDE_ROOTS');
    expect(await codeOf(box.files.readBytes(path.join(box.trashDir, 'x')))).toBe('OUTSIDE_ROOTS');
    expect(await readdir(box.auditDir)).toEqual([]);
  });

  it('refuses deleting or moving the workspace root, or a folder holding something protected', async () => {
    for (const p of ['.', box.ws, 'a/..', `${box.ws}/`]) {
      await expect(box.files.trash(p)).rejects.toMatchObject({ code: 'FORBIDDEN', path: p });
    }
    expect(await codeOf(box.files.move('.', 'elsewhere'))).toBe('FORBIDDEN');
    const nested = path.join(box.ws, 'team', 'audit');
    await mkdir(nested, { recursive: true });
    const files = await createFileAccess({ roots: [box.ws], trashDir: box.trashDir, protectedPaths: [nested] });
    expect(await codeOf(files.trash('team'))).toBe('FORBIDDEN');
    expect(await codeOf(files.move('team', 'team2'))).toBe('FORBIDDEN');
    expect(await codeOf(files.copy('team', 'team2'))).toBe('FORBIDDEN');
    expect((await readdir(box.ws)).sort()).toContain('team');
  });

  it('restores only inside the roots, never over something new, and only its own ids', async () => {
    await mkdir(path.join(box.ws, 'later'));
    await writeFile(path.join(box.ws, 'later', 'x.txt'), 'x');
    const entry = await box.files.trash('later/x.txt');
    // The folder is replaced by a link to outside before the restore: the way back leads out.
    await rm(path.join(box.ws, 'later'), { recursive: true });
    await symlink(box.outside, path.join(box.ws, 'later'));
    await expect(box.files.restore(entry.trashId)).rejects.toMatchObject({ code: 'OUTSIDE_ROOTS', path: 'later/x.txt' });
    await outsideUntouched();
    // Something new now sits at the original path: never overwritten.
    await rm(path.join(box.ws, 'later'));
    await mkdir(path.join(box.ws, 'later'));
    await writeFile(path.join(box.ws, 'later', 'x.txt'), 'new work');
    expect(await codeOf(box.files.restore(entry.trashId))).toBe('EXISTS');
    expect(await readFile(path.join(box.ws, 'later', 'x.txt'), 'utf8')).toBe('new work');
    // Gone again (folder too): the folder is recreated, the file comes back.
    await rm(path.join(box.ws, 'later'), { recursive: true });
    await box.files.restore(entry.trashId);
    expect(await readFile(path.join(box.ws, 'later', 'x.txt'), 'utf8')).toBe('x');
    for (const id of ['../ws', '..', entry.trashId, `${entry.trashId}/../x`, '']) {
      expect(await codeOf(box.files.restore(id))).toBe('NOT_FOUND');
    }
  });
});

describe('check-then-use (TOCTOU)', () => {
  it('a file swapped for a link after check() is refused by readBytes', async () => {
    await writeFile(path.join(box.ws, 'swap.txt'), 'harmless');
    expect(await box.files.check('swap.txt')).toBe(path.join(box.ws, 'swap.txt'));
    await rm(path.join(box.ws, 'swap.txt'));
    await symlink(box.secret, path.join(box.ws, 'swap.txt'));
    expect(await codeOf(box.files.readBytes('swap.txt'))).toBe('OUTSIDE_ROOTS');
  });

  // The window inside readBytes itself, between its own check and its open: driven through the
  // internal two halves so the swap lands exactly there.
  function confinerFor(b: Sandbox): Confiner {
    return new Confiner({
      rules: createPathRules({ platform: process.platform, home: b.base }),
      realRoots: [b.ws],
      lexicalRoots: [b.ws],
      protectedPaths: [b.protectedInside],
    });
  }

  it('a final-component swap between check and open is caught at open (O_NOFOLLOW)', async () => {
    const confiner = confinerFor(box);
    await writeFile(path.join(box.ws, 'swap.txt'), 'harmless');
    const checked = await confiner.target('swap.txt');
    await rm(checked.path);
    await symlink(box.secret, checked.path);
    expect(await codeOf(readChecked(checked.path, confiner, 'swap.txt', {}, 1024))).toBe('OUTSIDE_ROOTS');
  });

  it('a parent folder swapped for a link between check and open is caught after open', async () => {
    const confiner = confinerFor(box);
    await mkdir(path.join(box.ws, 'd'));
    await writeFile(path.join(box.ws, 'd', 'secret.txt'), 'harmless');
    const checked = await confiner.target('d/secret.txt');
    await rename(path.join(box.ws, 'd'), path.join(box.ws, 'd-old'));
    await symlink(box.outside, path.join(box.ws, 'd')); // d/secret.txt now reaches the real secret
    expect(await codeOf(readChecked(checked.path, confiner, 'd/secret.txt', {}, 1024))).toBe('OUTSIDE_ROOTS');
  });

  it('a file replaced (not linked) between check and open is reported as changed or read as the new file, never outside', async () => {
    const confiner = confinerFor(box);
    await writeFile(path.join(box.ws, 'r.txt'), 'one');
    const checked = await confiner.target('r.txt');
    await writeFile(path.join(box.ws, 'r2.txt'), 'two');
    await rename(path.join(box.ws, 'r2.txt'), path.join(box.ws, 'r.txt'));
    expect(Buffer.from(await readChecked(checked.path, confiner, 'r.txt', {}, 1024)).toString()).toBe('two');
    expect(await allNames(box.outside)).toEqual(['secret.txt']);
  });
});
