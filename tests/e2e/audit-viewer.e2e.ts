import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { verifyExportFile } from '../../electron/main/audit';
import { tamper } from '../helpers/tampered-ledgers';
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

/** The gate's events of one approved tool call, in the order the gate writes them (SPEC §2). */
const CALL_CHAIN = ['tool.proposed', 'permission.decided', 'approval.requested', 'approval.decided', 'execution.started', 'execution.finished'];

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** The event types of the rows in the table, newest first (the table is short here: all rows are in the DOM). */
async function rowTypes(page: Page): Promise<string[]> {
  return page.locator('.audit-list button.audit-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type') ?? ''));
}

test('150 files moved on approval → the audit viewer shows that call’s chain of events → verify says OK; export and checkpoint', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [moveTurn, textTurn('보고서 150개를 정리/2024로 옮겼습니다.')], setup: inbox });
  await page.goto(harness.url);
  const box = page.getByLabel('요청 입력', { exact: true });
  await box.fill('받은 문서의 보고서를 정리/2024로 옮겨줘');
  await box.press('Enter');

  const dialog = page.getByRole('alertdialog');
  await expect(dialog.locator('.count')).toHaveText(`(${FILES})`);
  const list = dialog.getByRole('list', { name: '영향을 받는 파일' });
  await expect(list).toHaveAttribute('data-count', String(FILES));
  const allow = dialog.getByRole('button', { name: '이번만 허용' });
  await expect(allow).toBeEnabled();
  await allow.click();
  await expect(page.getByText('보고서 150개를 정리/2024로 옮겼습니다.')).toBeVisible();
  expect(readdirSync(join(harness.workspace, '정리', '2024'))).toHaveLength(FILES);
  expect(readdirSync(join(harness.workspace, '받은 문서'))).toHaveLength(0);

  // To the audit viewer: the move's rows, then the one call's chain through its detail pane.
  await page.getByRole('navigation', { name: '화면' }).getByRole('button', { name: '감사 기록', exact: true }).click();
  await expect(page.getByRole('heading', { name: '감사 기록', level: 2 })).toBeVisible();
  const table = page.locator('.audit-list');
  await page.getByLabel('도구', { exact: true }).fill('filesystem.move');
  await expect(table.locator('button.audit-row[data-type="execution.finished"]')).toHaveCount(1);
  await table.locator('button.audit-row[data-type="execution.finished"]').click();
  const detail = page.getByRole('region', { name: '이벤트 상세' });
  await expect(detail.locator('.audit-event')).toContainText('"outcome": "ok"');
  await expect(detail.locator('.audit-event')).toContainText('정리/2024');
  const callId = await table.locator('button.audit-row[data-type="execution.finished"]').getAttribute('data-call');
  expect(callId).toMatch(/^[0-9a-f-]{36}$/);
  await detail.getByRole('button', { name: '이 도구 호출의 이벤트만 보기' }).click();
  await expect(page.getByLabel('내용 검색', { exact: true })).toHaveValue(callId as string);
  await expect(page.getByLabel('도구', { exact: true })).toHaveValue('');
  await expect(table.locator('button.audit-row')).toHaveCount(CALL_CHAIN.length);
  expect(await rowTypes(page)).toEqual([...CALL_CHAIN].reverse());
  const calls = await table.locator('button.audit-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-call')));
  expect(new Set(calls)).toEqual(new Set([callId]));
  // From the keyboard: arrows move between rows, Enter opens one.
  await table.locator('button.audit-row').first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(detail.locator('.audit-detail-title')).toContainText(`#${await table.locator('button.audit-row').nth(1).getAttribute('data-seq')} `);
  // The approval row says who approved what, as the ledger holds it.
  await table.locator('button.audit-row[data-type="approval.decided"]').click();
  await expect(detail.locator('.audit-event')).toContainText('"choice": "allow-once"');

  // Verify: the CLI's verdict, OK.
  const verify = page.getByRole('region', { name: '무결성 검증' });
  await verify.getByRole('button', { name: '무결성 검증', exact: true }).click();
  await expect(verify.locator('[data-verdict]')).toHaveAttribute('data-verdict', 'ok', { timeout: 30_000 });
  await expect(verify.getByRole('status')).toContainText('검증 정상');
  await verify.getByText('검증 보고서 전체').click();
  await expect(verify.locator('.audit-report')).toContainText('감사 기록 검증 정상');

  // The latest checkpoint (the session's daily one) as text and QR code.
  const checkpoint = page.getByRole('region', { name: '최근 체크포인트' });
  await expect(checkpoint.locator('.checkpoint-text')).toContainText('baram.audit/');
  await expect(checkpoint.getByRole('img', { name: '체크포인트 QR 코드' })).toBeVisible();
  await screenshot(page, 'audit-call-chain', 'ko');
  await expectAccessible(page, 'audit-call-chain.ko');

  // Export CSV through the save dialog (the harness's: the page never names the path).
  const target = join(harness.dataDir, '..', 'chosen-by-dialog.csv');
  harness.saveDialog.answerNext(target);
  const exporter = page.getByRole('region', { name: '내보내기' });
  await exporter.getByLabel('형식', { exact: true }).selectOption('csv');
  await exporter.getByRole('button', { name: '내보내기…' }).click();
  await expect(exporter.locator('[data-exported]')).toHaveAttribute('data-exported', target);
  expect(existsSync(target)).toBe(true);
  const csv = readFileSync(target, 'utf8');
  expect(csv).toContain('filesystem.move');
  expect(csv).toContain(callId as string);
  expect(harness.saveDialog.requests().at(-1)?.extension).toBe('csv');
  // The other formats the same way; the JSONL export verifies on its own (what a recipient checks).
  for (const [format, extension] of [['jsonl', 'jsonl'], ['syslog', 'log'], ['cef', 'cef']] as const) {
    const file = join(harness.dataDir, '..', `chosen-by-dialog.${extension}`);
    harness.saveDialog.answerNext(file);
    await exporter.getByLabel('형식', { exact: true }).selectOption(format);
    await exporter.getByRole('button', { name: '내보내기…' }).click();
    await expect(exporter.locator('[data-exported]')).toHaveAttribute('data-exported', file);
    expect(readFileSync(file, 'utf8')).toContain('filesystem.move');
    expect(harness.saveDialog.requests().at(-1)?.extension).toBe(extension);
    if (format === 'jsonl') expect(verifyExportFile(file, {}).verdict.ok).toBe(true);
  }
  // Cancel in the dialog: nothing written, the page says so.
  harness.saveDialog.answerNext(null);
  await exporter.getByLabel('형식', { exact: true }).selectOption('jsonl');
  await exporter.getByRole('button', { name: '내보내기…' }).click();
  await expect(exporter.getByRole('status')).toContainText('내보내기를 취소했습니다.');

  // A new checkpoint on demand reaches the newest row (the export's record).
  const before = await checkpoint.locator('.checkpoint-text').textContent();
  await checkpoint.getByRole('button', { name: '지금 체크포인트 만들기' }).click();
  await expect(checkpoint.locator('.checkpoint-text')).not.toHaveText(before ?? '');

  // English: the same screen, every label English.
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 2 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Verify integrity' }).getByRole('status')).toContainText('Verification OK');
  await screenshot(page, 'audit-call-chain', 'en');
  await expectAccessible(page, 'audit-call-chain.en');
});

test('a filter the query engine refuses gets its ko/en answer; an empty result says so', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [textTurn('네.')] });
  await page.goto(harness.url);
  await page.getByRole('button', { name: '감사 기록', exact: true }).click();
  const table = page.locator('.audit-list');
  await expect(table.locator('button.audit-row').first()).toBeVisible();
  await page.getByLabel('시작 시각', { exact: true }).fill('2026-12-02T10:00');
  await page.getByLabel('끝 시각 (포함 안 함)', { exact: true }).fill('2026-12-01T10:00');
  await expect(table.getByRole('status')).toContainText('fromTime');
  await expect(table.getByRole('status')).toContainText('앞서야 합니다');
  await page.getByRole('button', { name: '조건 지우기' }).click();
  await page.getByLabel('내용 검색', { exact: true }).fill('이런 글자는 기록에 없습니다');
  await expect(table.getByRole('status')).toHaveText('조건에 맞는 이벤트가 없습니다.');
  // The page can name a format and a period, never where the file goes: a path is refused by the contract.
  const refused = await page.evaluate(() => {
    const api = (globalThis as unknown as { baram: Record<string, (r: unknown) => Promise<unknown>> }).baram;
    return Promise.all([
      api['audit:export']?.({ format: 'csv', path: '/tmp/chosen-by-the-page.csv' }),
      api['audit:page']?.({ filter: { sql: '1=1' } }),
    ]);
  });
  expect(refused).toEqual([
    { ok: false, error: { code: 'BAD_REQUEST', message: expect.any(String) } },
    { ok: false, error: { code: 'BAD_REQUEST', message: expect.any(String) } },
  ]);
  expect(harness.saveDialog.requests()).toHaveLength(0);
  await screenshot(page, 'audit-no-match', 'ko');
  await expectAccessible(page, 'audit-no-match.ko');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(table.getByRole('status')).toHaveText(/^No event/);
  await screenshot(page, 'audit-no-match', 'en');
  await expectAccessible(page, 'audit-no-match.en');
});

test('verify over an edited row: FAILED, the first bad seq and why, in the CLI’s words (ko and en)', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [textTurn('네.')] });
  await page.goto(harness.url);
  await page.getByRole('button', { name: '감사 기록', exact: true }).click();
  const table = page.locator('.audit-list');
  await expect(table.locator('button.audit-row').first()).toBeVisible();
  // Someone with access to the data folder rewrites what row 2 says (the hash chain still names the old text).
  let edited = 0;
  tamper(join(harness.dataDir, 'audit'), (db) => {
    edited += db.prepare("UPDATE entries SET body = replace(body, '\"osUser\":\"', '\"osUser\":\"x') WHERE seq = 2").run().changes;
  });
  expect(edited).toBe(1);
  const verify = page.getByRole('region', { name: '무결성 검증' });
  await verify.getByRole('button', { name: '무결성 검증', exact: true }).click();
  await expect(verify.locator('[data-verdict]')).toHaveAttribute('data-verdict', 'failed', { timeout: 30_000 });
  await expect(verify.getByRole('status')).toHaveText('검증 실패 — 처음 문제가 된 순번 2: 내용이 바뀜');
  await verify.getByText('검증 보고서 전체').click();
  await expect(verify.locator('.audit-report')).toContainText('할 일');
  await expect(verify.locator('.audit-report')).toContainText('baram audit backup');
  await screenshot(page, 'audit-verify-failed', 'ko');
  await expectAccessible(page, 'audit-verify-failed.ko');
  await page.getByRole('button', { name: 'English' }).click();
  const verifyEn = page.getByRole('region', { name: 'Verify integrity' });
  await expect(verifyEn.getByRole('status')).toHaveText('Verification FAILED — First bad seq 2: edited');
  await expect(verifyEn.locator('.audit-report')).toContainText('what to do');
  await screenshot(page, 'audit-verify-failed', 'en');
});
