import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Lang } from '../../electron/common/i18n';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn, toolCallTurn } from '../helpers/scripted-model-server';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

/** Scope 3: the approval of an overwrite shows what changes, line by line, marked +/− and coloured. */

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

const OLD = '회의록\n참석: 김민수, 이지은\n결정: 다음 주 월요일 발표\n끝\n';
const NEW = '회의록\n참석: 김민수, 이지은, 박서준\n결정: 다음 주 월요일 발표\n끝\n';

for (const lang of ['ko', 'en'] as const satisfies readonly Lang[]) {
  test(`an overwrite approval shows the diff lines, marked for screen readers (${lang})`, async ({ page }) => {
    harness = await startPreviewHarness({
      turns: [
        toolCallTurn([{ id: 'w1', name: 'filesystem_write', arguments: { path: '회의록.txt', content: NEW, overwrite: true } }]),
        textTurn(lang === 'ko' ? '회의록을 고쳤습니다.' : 'Updated the minutes.'),
      ],
      setup: (ws) => writeFileSync(join(ws, '회의록.txt'), OLD),
      lang,
    });
    await page.goto(harness.url);
    const box = page.getByLabel(lang === 'ko' ? '요청 입력' : 'Your request');
    await box.fill(lang === 'ko' ? '참석자에 박서준을 넣어줘' : 'Add 박서준 to the attendees');
    await box.press('Enter');
    const dialog = page.getByRole('alertdialog');
    const diff = dialog.getByRole('group', { name: lang === 'ko' ? '변경 미리 보기' : 'Preview of the change' });
    await expect(diff).toBeVisible();
    const removed = diff.locator('.diff-removed');
    const added = diff.locator('.diff-added');
    await expect(removed).toHaveCount(1);
    await expect(added).toHaveCount(1);
    // What a screen reader reads: the word, then the line; what a colour-blind reader sees: the mark.
    await expect(removed).toHaveText(`−${lang === 'ko' ? '삭제' : 'removed'}: 참석: 김민수, 이지은`);
    await expect(added).toHaveText(`+${lang === 'ko' ? '추가' : 'added'}: 참석: 김민수, 이지은, 박서준`);
    await expect(diff.locator('.diff-context').first()).toHaveText(/회의록/);
    const colours = await Promise.all([removed, added].map((l) => l.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor)));
    expect(colours[0]).not.toBe(colours[1]);
    expect(readFileSync(join(harness.workspace, '회의록.txt'), 'utf8')).toBe(OLD); // nothing written yet

    const allow = dialog.getByRole('button', { name: lang === 'ko' ? '이번만 허용' : 'Allow once' });
    await expect(allow).toBeEnabled();
    await screenshot(page, 'approval-diff', lang);
    await expectAccessible(page, `approval-diff.${lang}`);
    await allow.click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => readFileSync(join(harness!.workspace, '회의록.txt'), 'utf8')).toBe(NEW);
  });
}
