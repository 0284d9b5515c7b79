import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { documentFiles } from '../../helpers/document-fixtures';

/** document.pdf.read through the real gate, on PDFs LibreOffice wrote (scripts/make-document-fixtures-writer.sh). */

const open = useTestGate();
// Anything that is not text a person wrote: the mojibake a font without ToUnicode produces.
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffd\ue000-\uf8ff]/;

describe('document.pdf.read', () => {
  it('reads Korean text with page numbers, without asking (a read inside the workspace)', async () => {
    const g = await open({ files: documentFiles('korean.pdf') });
    const r = await g.call('document.pdf.read', { path: 'korean.pdf' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('--- page 1 ---');
    expect(r.text).toContain('거래처: 바람상사 귀하');
    expect(r.text).toContain('의자 10 50,000');
    expect(g.approvals).toHaveLength(0);
  });

  it('reads a page range, saying which pages of how many were shown', async () => {
    const g = await open({ files: documentFiles('pages.pdf'), lang: 'ko' });
    const r = await g.call('document.pdf.read', { path: 'pages.pdf', pages: '2' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('--- 2쪽 ---');
    expect(r.text).toContain('200 만 원');
    expect(r.text).not.toContain('100 만 원');
    expect(r.text).toContain('[2쪽 / 전체 3쪽.]');
    const rest = await g.call('document.pdf.read', { path: 'pages.pdf', pages: '2-' });
    expect(rest.text).toContain('--- 3쪽 ---');
  });

  it('refuses a page that does not exist, naming the page count', async () => {
    const g = await open({ files: documentFiles('pages.pdf') });
    const r = await g.call('document.pdf.read', { path: 'pages.pdf', pages: '7' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('This PDF has 3 pages');
  });

  it('stops at the output budget on a page boundary, with a marker naming the next pages', async () => {
    const g = await open({ files: documentFiles(['bench/bench-20.pdf', 'long.pdf']) });
    const r = await g.session.gate.call({ tool: 'document.pdf.read', args: { path: 'long.pdf' }, outputBudget: 4000 });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('--- page 1 ---');
    const marker = /\[pages 1-(\d+) of 21\. Read on with pages="(\d+)-21"\.\]/.exec(r.text);
    expect(marker).not.toBeNull();
    expect(Number(marker![2])).toBe(Number(marker![1]) + 1);
    expect(r.text.length).toBeLessThanOrEqual(4000);
  });

  it('says honestly that a Korean PDF whose fonts lack ToUnicode cannot be read, instead of showing mojibake', async () => {
    const g = await open({ files: documentFiles('no-tounicode.pdf') });
    const r = await g.call('document.pdf.read', { path: 'no-tounicode.pdf' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('ToUnicode');
    expect(r.text).toContain('Ask the user for the original');
    expect(r.text).not.toMatch(NOT_TEXT);
    expect(r.details).toMatchObject({ unreadablePages: [1] });
  });

  it('reports a scanned page as having no text layer', async () => {
    const g = await open({ files: documentFiles('scanned.pdf'), lang: 'ko' });
    const r = await g.call('document.pdf.read', { path: 'scanned.pdf' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('1쪽에는 글자 층이 없습니다');
    expect(r.text).toContain('OCR');
  });

  it('gives clear messages for a password-protected and a damaged PDF', async () => {
    const g = await open({ files: documentFiles('encrypted.pdf', 'damaged.pdf', ['korean.docx', 'fake.pdf']) });
    const locked = await g.call('document.pdf.read', { path: 'encrypted.pdf' });
    expect(locked.outcome).toBe('error');
    expect(locked.text).toContain('password-protected');
    for (const path of ['damaged.pdf', 'fake.pdf']) {
      const damaged = await g.call('document.pdf.read', { path });
      expect(damaged.outcome).toBe('error');
      expect(damaged.text).toContain('damaged or cut off');
    }
  });

  it('refuses other kinds of files before running, pointing to the right tool', async () => {
    const g = await open({ files: documentFiles('korean.docx') });
    const r = await g.call('document.pdf.read', { path: 'korean.docx' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('document.word.read');
  });
});
