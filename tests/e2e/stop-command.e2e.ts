import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readLedgerRows } from '../../electron/main/audit';
import { auditDir } from '../../electron/main/runtime/session';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn, toolCallTurn } from '../helpers/scripted-model-server';

/**
 * Stop during a long `shell.execute` in the window (issue 17 Must show): the program (sh) and the
 * child it started (sleep) both die, the card says stopped, the ledger records cancelled. The
 * shell writes its own pid and its child's to a file, so the test checks those very processes.
 */

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** A process is gone when /proc has no entry for it, or only a zombie (dead, waiting to be reaped). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

function ledger(dataDir: string): { type: string; tool?: string; outcome?: string }[] {
  return [...readLedgerRows(auditDir(dataDir))].map((row) => JSON.parse(row.body) as { type: string; tool?: string; outcome?: string });
}

test('Stop during a long command: the program and its child are killed, the card and the ledger say cancelled', async ({ page }) => {
  // A distinctive duration, so a leftover from another run is never mistaken for this one.
  const seconds = `${300 + Math.floor(Math.random() * 1000)}.5`;
  const script = `sleep ${seconds} & echo $! > pids.txt; echo $$ >> pids.txt; wait`;
  harness = await startPreviewHarness({
    turns: [
      toolCallTurn([{ id: 'long-1', name: 'shell_execute', arguments: { command: 'sh', args: ['-c', script], timeoutMs: 600_000 } }]),
      textTurn('이 답은 오지 않아야 합니다.'),
    ],
    // The e2e policy whitelists sh (from the system folders) so a long-running program can start.
    policy: { version: 1, shell: { commands: { sh: {} }, trustedDirs: ['/usr/bin', '/bin'] } },
  });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력');
  await box.fill('오래 걸리는 작업을 돌려줘');
  await box.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: '이번만 허용' }).click();
  await expect(dialog).toBeHidden();

  const pidFile = join(harness.workspace, 'pids.txt');
  const pids = () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : []);
  await expect.poll(() => pids().length).toBe(2);
  const [child, shell] = pids() as [number, number];
  expect(alive(child)).toBe(true);
  expect(alive(shell)).toBe(true);
  const card = page.locator('.tool-card[data-tool="shell.execute"]');
  await expect(card.locator('[data-outcome="running"]')).toBeVisible();

  await page.getByRole('button', { name: '중지' }).click();
  await expect(card.locator('[data-outcome="cancelled"]')).toHaveText('중지됨');
  await expect(page.getByRole('status')).toContainText('중지했습니다.');
  await expect.poll(() => [alive(child), alive(shell)]).toEqual([false, false]);

  await expect.poll(() => ledger(harness!.dataDir).find((e) => e.type === 'execution.finished')).toMatchObject({ tool: 'shell.execute', outcome: 'cancelled' });
  expect(ledger(harness.dataDir).find((e) => e.type === 'request.finished')).toMatchObject({ outcome: 'cancelled' });
  await expect(page.getByText('이 답은 오지 않아야 합니다.')).toHaveCount(0);
  expect(harness.model.chatRequests()).toHaveLength(1);
});
