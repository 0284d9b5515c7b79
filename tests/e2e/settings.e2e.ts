import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Lang } from '../../electron/common/i18n';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn, toolCallTurn } from '../helpers/scripted-model-server';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

/**
 * Settings (issue 17 scope 5) over the preview harness: the model's connection check (the
 * scripted server, a dead port, a server the admin did not list), the model status in the chat,
 * the language switch (live and saved), the policy in force, and session grants (listed, revoked,
 * and then the same call asks again).
 */

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** A port on 127.0.0.1 nothing listens on: bound, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function openSettings(page: Page, lang: Lang): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: lang === 'ko' ? '설정' : 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 2, name: lang === 'ko' ? '설정' : 'Settings' })).toBeVisible();
}

test('the model: status in the chat, a connection check says OK, unreachable in plain words, and refuses what the admin did not allow', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [] });
  await page.goto(harness.url);
  const status = page.getByLabel('모델 상태');
  await expect(status).toHaveAttribute('data-state', 'connected');
  await expect(status).toContainText('연결됨');
  await expect(status).toContainText('scripted-model');

  await openSettings(page, 'ko');
  const box = page.getByLabel('모델 서버 주소 또는 GGUF 파일 경로');
  await expect(box).toHaveValue(harness.model.url);
  await expect(page.locator('.model-current')).toHaveText(harness.model.url);
  await page.getByRole('button', { name: '연결 확인' }).click();
  const result = page.locator('.model-check-result');
  await expect(result).toContainText('연결됨: 모델 scripted-model (openai)');
  // The check asked what the server is; it sent no prompt.
  expect(harness.model.chatRequests()).toHaveLength(0);
  await screenshot(page, 'settings', 'ko');
  await expectAccessible(page, 'settings.ko');

  const dead = `http://127.0.0.1:${await deadPort()}`;
  await box.fill(dead);
  await page.getByRole('button', { name: '연결 확인' }).click();
  await expect(result).toContainText(`연결할 수 없습니다. ${dead}에서 아무것도 응답하지 않습니다. 모델 서버가 켜져 있는지, 주소와 포트 번호가 맞는지 확인하세요.`);
  await expect(result.locator('[data-reachable]')).toHaveAttribute('data-reachable', 'false');

  // Not on the admin's list (the built-in policy allows this computer only): refused, never contacted.
  await box.fill('http://10.20.30.40:8080');
  await page.getByRole('button', { name: '연결 확인' }).click();
  await expect(result).toContainText('관리자가 모델 서버 http://10.20.30.40:8080을(를) 허용하지 않았습니다');
  await expect(result.locator('[data-allowed]')).toHaveAttribute('data-allowed', 'false');
  await page.getByRole('button', { name: '이 모델 사용' }).click();
  await expect(result.locator('.model-refused')).toContainText('관리자가 모델 서버 http://10.20.30.40:8080을(를) 허용하지 않았습니다');
  await expect(page.locator('.model-current')).toHaveText(harness.model.url);

  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible();
  await page.getByLabel('Model server address or GGUF file path').fill(dead);
  await page.getByRole('button', { name: 'Check connection' }).click();
  await expect(result).toContainText(`Cannot connect. Nothing answers at ${dead}. Check that the model server is running and that the address and port are right.`);
  await page.getByLabel('Model server address or GGUF file path').fill(harness.model.url);
  await page.getByRole('button', { name: 'Check connection' }).click();
  await expect(result).toContainText('Connected: model scripted-model (openai)');
  await screenshot(page, 'settings', 'en');
  await expectAccessible(page, 'settings.en');

  // Using a dead server is allowed (it is on the list) and the chat's status then says so in words.
  await page.getByLabel('Model server address or GGUF file path').fill(dead);
  await page.getByRole('button', { name: 'Use this model' }).click();
  await expect(page.locator('.model-current')).toHaveText(dead);
  await page.getByRole('navigation').getByRole('button', { name: 'Chat' }).click();
  const statusEn = page.getByLabel('Model status');
  await expect(statusEn).toHaveAttribute('data-state', 'unreachable');
  await expect(statusEn).toContainText('Unreachable');
  await expect(statusEn).toContainText('Check that the model server is running');
  expect(JSON.parse(readFileSync(join(harness.dataDir, 'desktop-settings.json'), 'utf8'))).toMatchObject({ model: dead, lang: 'en' });
});

test('language: the switch in settings changes the UI at once and is kept after a reload', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [] });
  await page.goto(harness.url);
  await openSettings(page, 'ko');
  await page.getByRole('radio', { name: 'English' }).check();
  await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Policy in force (read-only)' })).toBeVisible();
  await expect.poll(() => existsSync(join(harness!.dataDir, 'desktop-settings.json'))).toBe(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Baram' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByLabel('Your request')).toBeVisible();
  await openSettings(page, 'en');
  await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
  await page.getByRole('radio', { name: '한국어' }).check();
  await expect(page.getByRole('heading', { level: 2, name: '설정' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('요청 입력')).toBeVisible();
});

test('the policy in force is shown read-only, with what the administrator locked', async ({ page }) => {
  harness = await startPreviewHarness({
    turns: [],
    policy: { version: 1, defaults: { network: 'deny' }, rules: { deny: ['filesystem.delete(**/*.hwp)'] }, shell: { commands: { git: {} } } },
  });
  await page.goto(harness.url);
  await openSettings(page, 'ko');
  const policy = page.getByRole('region', { name: '적용 중인 정책 (읽기 전용)' });
  await expect(policy.getByText('filesystem.delete(**/*.hwp)')).toBeVisible();
  const denyRule = policy.locator('tr[data-locked="true"]', { hasText: 'filesystem.delete(**/*.hwp)' });
  await expect(denyRule).toContainText('관리자 고정');
  await expect(policy.locator('tr[data-risk="network"]')).toContainText('거부');
  await expect(policy.locator('tr[data-risk="network"]')).toContainText('관리자 고정');
  await expect(policy.locator('tr[data-risk="read"]')).toHaveAttribute('data-locked', 'false');
  await expect(policy.getByText('git', { exact: true })).toBeVisible();
  await expect(policy.locator('input, textarea, select')).toHaveCount(0);
  await screenshot(page, 'settings-policy', 'ko');
  await expectAccessible(page, 'settings-policy.ko');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('region', { name: 'Policy in force (read-only)' })).toContainText('filesystem.delete(**/*.hwp)');
  await screenshot(page, 'settings-policy', 'en');
  await expectAccessible(page, 'settings-policy.en');
});

test('a grant made with "allow for this session" is listed in settings; revoked, the next call asks again', async ({ page }) => {
  const write = (id: string, content: string) => toolCallTurn([{ id, name: 'filesystem_write', arguments: { path: '메모.txt', content, overwrite: true } }]);
  harness = await startPreviewHarness({
    turns: [write('w1', '첫째\n'), textTurn('첫 번째로 고쳤습니다.'), write('w2', '둘째\n'), textTurn('두 번째로 고쳤습니다.'), write('w3', '셋째\n'), textTurn('세 번째로 고쳤습니다.')],
    setup: (ws) => writeFileSync(join(ws, '메모.txt'), '처음\n'),
  });
  const memo = () => readFileSync(join(harness!.workspace, '메모.txt'), 'utf8');
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  const dialog = page.getByRole('alertdialog');

  await box.fill('메모를 고쳐줘');
  await box.press('Enter');
  await dialog.getByRole('button', { name: '이 세션 동안 허용' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('첫 번째로 고쳤습니다.')).toBeVisible();
  expect(memo()).toBe('첫째\n');

  // The grant holds: the same write does not ask.
  await box.fill('다시 고쳐줘');
  await box.press('Enter');
  await expect(page.getByText('두 번째로 고쳤습니다.')).toBeVisible();
  expect(memo()).toBe('둘째\n');

  await openSettings(page, 'ko');
  const grants = page.getByRole('list', { name: '이 세션 동안 허용한 것' });
  const grant = grants.getByRole('listitem');
  await expect(grant).toHaveCount(1);
  await expect(grant).toHaveAttribute('data-tool', 'filesystem.write');
  await expect(grant).toContainText(join(harness.workspace, '메모.txt'));
  await screenshot(page, 'settings-grants', 'ko');
  await expectAccessible(page, 'settings-grants.ko');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('list', { name: 'Allowed for this session' }).getByRole('listitem')).toHaveCount(1);
  await screenshot(page, 'settings-grants', 'en');
  await expectAccessible(page, 'settings-grants.en');
  await page.getByRole('button', { name: '한국어' }).click();
  await grant.getByRole('button', { name: /^취소/ }).click();
  await expect(page.getByText('이 세션에서 "이 세션 동안 허용"을 고른 적이 없습니다.')).toBeVisible();
  // The ledger shows the grant's end as it shows its start.
  const revoked = [...readLedgerRows(auditDir(harness.dataDir))].map((row) => JSON.parse(row.body) as { type: string; tool?: string; target?: string[] }).find((e) => e.type === 'session.grant.revoked');
  expect(revoked).toMatchObject({ tool: 'filesystem.write', target: [join(harness.workspace, '메모.txt')] });

  await page.getByRole('navigation').getByRole('button', { name: '대화' }).click();
  await box.fill('한 번 더 고쳐줘');
  await box.press('Enter');
  await expect(dialog).toBeVisible();
  expect(memo()).toBe('둘째\n');
  await dialog.getByRole('button', { name: '이번만 허용' }).click();
  await expect(page.getByText('세 번째로 고쳤습니다.')).toBeVisible();
  expect(memo()).toBe('셋째\n');
});
