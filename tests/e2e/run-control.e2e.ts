import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { chunk, sse, textTurn, toolCallTurn } from '../helpers/scripted-model-server';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

test('Stop is visible while the answer streams and ends the run', async ({ page }) => {
  // The model starts answering and never finishes (the response is held open).
  const held = sse([chunk.role(), chunk.content('보고서를 살펴보는 중입니다')], { done: false, end: 'hold' });
  harness = await startPreviewHarness({ turns: [held] });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  await box.fill('보고서를 요약해줘');
  await box.press('Enter');
  await expect(page.locator('.bubble.assistant')).toHaveText('보고서를 살펴보는 중입니다');
  const stop = page.getByRole('button', { name: '중지' });
  await expect(stop).toBeVisible();
  await expect(page.getByRole('button', { name: '보내기' })).toBeDisabled();
  await screenshot(page, 'chat-running', 'ko');
  await expectAccessible(page, 'chat-running.ko');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await screenshot(page, 'chat-running', 'en');
  await page.getByRole('button', { name: '한국어' }).click();
  await stop.click();
  await expect(page.getByRole('status')).toContainText('중지했습니다.');
  await expect(stop).toBeHidden();
});

test('an unanswered approval times out to deny: the dialog closes, nothing moves, the card says denied', async ({ page }) => {
  const setup = (workspace: string) => {
    mkdirSync(join(workspace, '받은 문서'));
    for (const name of ['a.txt', 'b.txt']) writeFileSync(join(workspace, '받은 문서', name), name);
  };
  harness = await startPreviewHarness({
    turns: [toolCallTurn([{ id: 'call-1', name: 'filesystem_move', arguments: { from: '받은 문서/*.txt', to: '보관' } }]), textTurn('승인되지 않아 옮기지 않았습니다.')],
    setup,
    policy: { version: 1, approval: { timeoutSeconds: 2 } },
    lang: 'en',
  });
  await page.goto(harness.url);
  const box = page.getByLabel('Your request');
  await box.fill('Move the files to 보관');
  await box.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('.countdown')).toContainText('Auto-deny in');
  await expect(dialog).toBeHidden({ timeout: 10_000 });
  await expect(page.locator('.tool-card [data-outcome="denied"]')).toHaveText('Denied');
  await expect(page.getByText('승인되지 않아 옮기지 않았습니다.')).toBeVisible();
  expect(readdirSync(join(harness.workspace, '받은 문서')).sort()).toEqual(['a.txt', 'b.txt']);
  await screenshot(page, 'chat-denied', 'en');
  await expectAccessible(page, 'chat-denied.en');
  await page.getByRole('button', { name: '한국어' }).click();
  await expect(page.locator('.tool-card [data-outcome="denied"]')).toHaveText('거부됨');
  await screenshot(page, 'chat-denied', 'ko');
  await expectAccessible(page, 'chat-denied.ko');
});

test('an approval still open when the page reloads is shown again, and can be answered', async ({ page }) => {
  const setup = (workspace: string) => {
    mkdirSync(join(workspace, '받은 문서'));
    writeFileSync(join(workspace, '받은 문서', 'a.txt'), 'a');
  };
  harness = await startPreviewHarness({
    turns: [toolCallTurn([{ id: 'call-1', name: 'filesystem_move', arguments: { from: '받은 문서/a.txt', to: '보관/a.txt' } }]), textTurn('옮겼습니다.')],
    setup,
  });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  await box.fill('a.txt를 보관으로 옮겨줘');
  await box.press('Enter');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.reload();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '이번만 허용' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => readdirSync(join(harness!.workspace, '보관'))).toEqual(['a.txt']);
});

test('the dialog works from the keyboard: Tab reaches the buttons once armed, Escape denies', async ({ page }) => {
  const setup = (workspace: string) => {
    mkdirSync(join(workspace, '받은 문서'));
    writeFileSync(join(workspace, '받은 문서', 'a.txt'), 'a');
  };
  const move = (id: string) => toolCallTurn([{ id, name: 'filesystem_move', arguments: { from: '받은 문서/a.txt', to: '보관/a.txt' } }]);
  harness = await startPreviewHarness({ turns: [move('call-1'), textTurn('취소했습니다.'), move('call-2'), textTurn('옮겼습니다.')], setup });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  await box.fill('옮겨줘');
  await box.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('.tool-card [data-outcome="denied"]')).toBeVisible();
  await expect(page.getByText('취소했습니다.')).toBeVisible();

  await box.fill('다시 옮겨줘');
  await box.press('Enter');
  const allow = dialog.getByRole('button', { name: '이번만 허용' });
  await expect(allow).toBeEnabled();
  for (let i = 0; i < 10 && !(await allow.evaluate((el) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(allow).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect.poll(() => readdirSync(join(harness!.workspace, '보관'))).toEqual(['a.txt']);
});
