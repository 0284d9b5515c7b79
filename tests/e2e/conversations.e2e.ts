import { expect, test } from '@playwright/test';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn } from '../helpers/scripted-model-server';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

test('a conversation is listed, can be reopened after a new one, and the next request continues it', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [textTurn('첫 답입니다.'), textTurn('이어서 답합니다.')] });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  await box.fill('첫 질문');
  await box.press('Enter');
  await expect(page.getByText('첫 답입니다.')).toBeVisible();
  const list = page.getByRole('navigation', { name: '대화 목록' });
  const saved = list.getByRole('button', { name: /첫 질문/ });
  await expect(saved).toBeVisible();

  await list.getByRole('button', { name: '새 대화' }).click();
  await expect(page.getByText('첫 답입니다.')).toBeHidden();
  await saved.click();
  await expect(page.getByText('첫 답입니다.')).toBeVisible();
  await expect(saved).toHaveAttribute('aria-current', 'true');

  await box.fill('두 번째 질문');
  await box.press('Enter');
  await expect(page.getByText('이어서 답합니다.')).toBeVisible();
  const second = harness.model.chatRequests()[1]!.json as { messages: { role: string; content: string }[] };
  expect(second.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['첫 질문', '첫 답입니다.', '두 번째 질문']));
  await expect(list.getByRole('listitem')).toHaveCount(1); // the same conversation, continued
  await screenshot(page, 'conversations', 'ko');
  await expectAccessible(page, 'conversations.ko');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeVisible();
  await screenshot(page, 'conversations', 'en');
});
