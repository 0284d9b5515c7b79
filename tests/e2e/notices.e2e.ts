import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn, toolCallTurn } from '../helpers/scripted-model-server';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

/**
 * What the session reports on its own reaches the window (issue 19: a server that dies is
 * "contained and reported"): an MCP server of the admin policy (the SDK fixture server of the MCP
 * tests) is started before the page loads, so that report comes from notices:list; a call that
 * makes it crash brings the next report as an app:notice event.
 */
const FIXTURE_SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mcp', 'server.mjs');

let harness: PreviewHarness | null = null;
let marker: string | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
  if (marker) rmSync(marker, { recursive: true, force: true });
  marker = null;
});

test('an MCP server that stops is reported above every screen until dismissed', async ({ page }) => {
  marker = mkdtempSync(join(tmpdir(), 'baram-mcp-e2e-'));
  harness = await startPreviewHarness({
    turns: [toolCallTurn([{ id: 'c1', name: 'mcp_fx_crash', arguments: {} }]), textTurn('서버가 멈췄습니다.')],
    policy: {
      version: 1,
      shell: { trustedDirs: [dirname(realpathSync(process.execPath))] },
      mcp: { servers: { fx: { command: basename(process.execPath), args: [FIXTURE_SERVER, '--dir', marker], maxRestarts: 0 } } },
    },
  });
  await page.goto(harness.url);
  const notices = page.getByRole('status', { name: '알림' });
  // Reported while the session opened, before this page existed.
  await expect(notices).toContainText("MCP 서버 'fx'을(를) 시작했습니다");

  const box = page.getByLabel('요청 입력');
  await box.fill('fx 서버의 crash 도구를 불러줘');
  await box.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: '이번만 허용' }).click();
  await expect(page.getByText('서버가 멈췄습니다.')).toBeVisible();
  // Reported as it happened.
  await expect(notices).toContainText("MCP 서버 'fx'이(가) 끝났습니다");
  await expectAccessible(page, 'notices.ko');
  await screenshot(page, 'notices', 'ko');
  await page.getByRole('button', { name: 'English' }).click();
  // The section is named in the window's language now (the Korean locator above finds nothing).
  const shown = page.getByRole('status', { name: 'Notices' });
  await expect(shown).toContainText("The MCP server 'fx' ended");
  await screenshot(page, 'notices', 'en');

  // One at a time, then the rest at once (a server that keeps failing leaves several).
  const count = await shown.locator('.session-notice').count();
  expect(count).toBeGreaterThanOrEqual(3);
  await shown.getByRole('button', { name: 'Dismiss', exact: true }).first().click();
  await expect(shown.locator('.session-notice')).toHaveCount(count - 1);
  await shown.getByRole('button', { name: 'Dismiss all' }).click();
  await expect(page.locator('.session-notices')).toBeHidden();
});
