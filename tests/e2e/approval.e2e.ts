import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn, toolCallTurn, type Turn } from '../helpers/scripted-model-server';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

const FILES = 150;

function inbox(workspace: string): void {
  const dir = join(workspace, '받은 문서');
  mkdirSync(dir);
  for (let i = 1; i <= FILES; i++) writeFileSync(join(dir, `보고서-${String(i).padStart(3, '0')}.txt`), `보고서 ${i}\n`);
}

const moveTurn: Turn = toolCallTurn([{ id: 'call-1', name: 'filesystem_move', arguments: { from: '받은 문서/*.txt', to: '정리/2024' } }]);

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

async function ask(page: Page, task: string): Promise<void> {
  const box = page.getByLabel('요청 입력');
  await box.fill(task);
  await box.press('Enter');
}

test('a glob of 150 files: one dialog lists all 150, Enter before 600 ms does nothing, approve moves them on disk', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [moveTurn, textTurn('보고서 150개를 정리/2024로 옮겼습니다.')], setup: inbox });
  await page.goto(harness.url);
  await expect(page.getByRole('heading', { name: '바람' })).toBeVisible();
  await screenshot(page, 'chat-empty', 'ko');
  await expectAccessible(page, 'chat-empty.ko');

  await ask(page, '받은 문서의 보고서를 정리/2024로 옮겨줘');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  // A stray Enter right away (the dialog has focus, the buttons are not armed yet) approves nothing.
  await page.keyboard.press('Enter');
  const allow = dialog.getByRole('button', { name: '이번만 허용' });
  await expect(allow).toBeDisabled();
  await expect(dialog).toBeVisible();

  await expect(dialog.locator('.count')).toHaveText(`(${FILES})`);
  const list = dialog.getByRole('list', { name: '영향을 받는 파일' });
  await expect(list).toHaveAttribute('data-count', String(FILES));
  await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', String(FILES));
  await expect(list.getByRole('listitem').first()).toContainText('보고서-001.txt');
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(list.getByText('받은 문서/보고서-150.txt', { exact: true })).toBeVisible();
  await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-posinset', String(FILES));
  expect(readdirSync(join(harness.workspace, '받은 문서'))).toHaveLength(FILES); // nothing moved yet

  await expect(allow).toBeEnabled();
  await screenshot(page, 'approval-dialog', 'ko');
  await expectAccessible(page, 'approval-dialog.ko');

  await allow.click();
  await expect(dialog).toBeHidden();
  const card = page.locator('.tool-card[data-tool="filesystem.move"]');
  await expect(card.locator('[data-outcome="ok"]')).toBeVisible();
  await expect(card.locator('.tool-summary')).toContainText('150');
  await expect(page.getByText('보고서 150개를 정리/2024로 옮겼습니다.')).toBeVisible();
  expect(readdirSync(join(harness.workspace, '정리', '2024'))).toHaveLength(FILES);
  expect(readdirSync(join(harness.workspace, '받은 문서'))).toHaveLength(0);
  await screenshot(page, 'chat-answered', 'ko');
  await expectAccessible(page, 'chat-answered.ko');
});

test('in English (the app started with lang en): the same dialog and answer, every string English', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [moveTurn, textTurn('Moved the 150 reports to 정리/2024.')], setup: inbox, lang: 'en' });
  await page.goto(harness.url);
  await expect(page.getByRole('heading', { name: 'Baram' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await screenshot(page, 'chat-empty', 'en');
  const box = page.getByLabel('Your request');
  await box.fill('Move the reports into 정리/2024');
  await box.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Approval needed' });
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  await expect(allow).toBeEnabled();
  await expect(dialog.locator('.count')).toHaveText(`(${FILES})`);
  await screenshot(page, 'approval-dialog', 'en');
  await expectAccessible(page, 'approval-dialog.en');
  await allow.click();
  await expect(page.locator('.tool-card [data-outcome="ok"]')).toHaveText('Done');
  await expect(page.getByText('Moved the 150 reports to 정리/2024.')).toBeVisible();
  await screenshot(page, 'chat-answered', 'en');
});

test('deny with a reason: nothing moves and the reason reaches the model', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [moveTurn, textTurn('알겠습니다. 옮기지 않겠습니다.')], setup: inbox });
  await page.goto(harness.url);
  await ask(page, '보고서를 정리해줘');
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel('거부 이유').fill('2023 폴더로 옮겨야 합니다');
  await dialog.getByRole('button', { name: '거부' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.tool-card [data-outcome="denied"]')).toBeVisible();
  await expect(page.getByText('알겠습니다. 옮기지 않겠습니다.')).toBeVisible();
  expect(readdirSync(join(harness.workspace, '받은 문서'))).toHaveLength(FILES);
  const second = harness.model.chatRequests()[1];
  expect(second?.body).toContain('2023 폴더로 옮겨야 합니다');
});

test('Enter while a Hangul syllable is composing does not send; Enter afterwards does', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [textTurn('안녕하세요!')] });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  await box.fill('안녕하세');
  // A real IME composition through the DevTools protocol ('요' still composing), then the Enter
  // that confirms the syllable, as Chromium delivers it (isComposing, keyCode 229). The box holds
  // text, so an Enter that got through would send it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.imeSetComposition', { text: '요', selectionStart: 1, selectionEnd: 1 });
  await box.dispatchEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 229, isComposing: true, bubbles: true, cancelable: true });
  await cdp.send('Input.insertText', { text: '요' }); // commits the syllable, ends the composition
  await page.waitForTimeout(300);
  expect(harness.model.chatRequests()).toHaveLength(0);
  await expect(page.locator('.bubble.user')).toHaveCount(0);
  await expect(box).toHaveValue('안녕하세요');

  await box.press('Enter');
  await expect(page.locator('.bubble.user')).toHaveText('안녕하세요');
  await expect(page.getByText('안녕하세요!')).toBeVisible();
  expect(harness.model.chatRequests()).toHaveLength(1);
});
