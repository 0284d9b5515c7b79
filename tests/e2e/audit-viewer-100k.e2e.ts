import { expect, test, type Page } from '@playwright/test';
import { BENCH_USERS } from '../bench/audit-query-corpus';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn } from '../helpers/scripted-model-server';
import { seedAuditLedger } from './audit-seed';
import { expectAccessible } from './a11y';
import { screenshot } from './screens';

/**
 * The audit viewer over a 100k-event ledger (issue 17, Must show): it scrolls (pages fetched from
 * main as the table nears its end, far pages dropped and fetched again), and a filter answers
 * within 300 ms in the browser — measured in the page from the input event to the rows in the
 * DOM and painted (performance.now()). The issue asks for that figure explicitly; it is printed.
 */
const EVENTS = 100_000;
const BUDGET_MS = 300;

let harness: PreviewHarness | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** Sets a filter field as a person would (React sees an input/change event) and times it until the new rows are painted. */
async function timedFilter(page: Page, name: string, value: string): Promise<{ ms: number; rows: number }> {
  return page.evaluate(
    async ({ name, value }) => {
      // Runs in the page; the tests' tsconfig has no DOM library, so the page's globals are untyped here.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const w = globalThis as any;
      const doc = w.document;
      const list = doc.querySelector('.audit-list');
      const generation = Number(list.dataset.generation);
      const field = doc.querySelector(`.audit-filters [name="${name}"]`);
      const isSelect = field instanceof w.HTMLSelectElement;
      const proto = isSelect ? w.HTMLSelectElement.prototype : w.HTMLInputElement.prototype;
      const setValue = Object.getOwnPropertyDescriptor(proto, 'value')?.set as (this: unknown, v: string) => void;
      const answered = (): boolean => {
        const l = doc.querySelector('.audit-list');
        return Number(l.dataset.generation) > generation && l.dataset.state === 'ready' && l.querySelector('button.audit-row') !== null;
      };
      const started = performance.now();
      setValue.call(field, value);
      field.dispatchEvent(new w.Event(isSelect ? 'change' : 'input', { bubbles: true }));
      await new Promise<void>((resolve) => {
        if (answered()) return resolve();
        const observer = new w.MutationObserver(() => {
          if (!answered()) return;
          observer.disconnect();
          resolve();
        });
        observer.observe(doc.body, { subtree: true, childList: true, attributes: true });
      });
      // Rows in the DOM are not yet on screen: wait for the frame that paints them.
      await new Promise<void>((resolve) => w.requestAnimationFrame(() => setTimeout(resolve, 0)));
      const ms = performance.now() - started;
      return { ms, rows: Number(doc.querySelector('.audit-list').dataset.rows) };
    },
    { name, value },
  );
}

async function openViewer(page: Page): Promise<void> {
  await page.goto((harness as PreviewHarness).url);
  await page.getByRole('button', { name: '감사 기록', exact: true }).click();
  await expect(page.locator('.audit-list button.audit-row').first()).toBeVisible();
}

test.describe.configure({ timeout: 240_000 });

test('over 100k events the table scrolls: pages load as it nears the end, far pages are dropped and come back', async ({ page }) => {
  let seeded = 0;
  harness = await startPreviewHarness({ turns: [textTurn('네.')], setupData: (dir) => (seeded = seedAuditLedger(dir, EVENTS).lastSeq) });
  expect(seeded).toBe(EVENTS);
  await openViewer(page);
  const table = page.locator('.audit-list');
  const scroller = table.getByRole('list', { name: '감사 이벤트' });
  // Scroll to the end again and again: each time the next page is fetched.
  for (let i = 0; i < 20; i++) {
    const rows = Number(await table.getAttribute('data-rows'));
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(async () => Number(await table.getAttribute('data-rows'))).toBeGreaterThan(rows);
  }
  const loaded = Number(await table.getAttribute('data-rows'));
  expect(loaded).toBeGreaterThanOrEqual(2000);
  // The page holds only the pages near the view, never the whole ledger.
  expect(Number(await table.getAttribute('data-held'))).toBeLessThanOrEqual(1200);
  expect(await table.locator('[role="listitem"]').count()).toBeLessThan(60);
  const last = table.locator('button.audit-row').last();
  await expect(last).toBeVisible();
  const deepSeq = Number(await last.getAttribute('data-seq'));
  expect(deepSeq).toBeLessThan(EVENTS - 1900);
  // Back to the top: the newest rows (dropped meanwhile) are fetched again, in the same order.
  await scroller.evaluate((el) => (el.scrollTop = 0));
  const first = table.locator('[role="listitem"][aria-posinset="1"] button.audit-row');
  await expect(first).toBeVisible();
  expect(Number(await first.getAttribute('data-seq'))).toBeGreaterThan(EVENTS);
  await screenshot(page, 'audit-100k', 'ko');
  await expectAccessible(page, 'audit-100k.ko');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 2 })).toBeVisible();
  await screenshot(page, 'audit-100k', 'en');
});

test('over 100k events a filter answers within 300 ms in the browser (input → rows painted)', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [textTurn('네.')], setupData: (dir) => void seedAuditLedger(dir, EVENTS) });
  await openViewer(page);
  const user = BENCH_USERS[3]?.osUser as string;
  const cases: readonly (readonly [string, string])[] = [
    ['outcome', 'denied'],
    ['user', user],
    ['tool', 'filesystem.delete'],
    ['text', '보고서'],
    ['decision', 'ask'],
  ];
  const clear = async () => {
    await page.getByRole('button', { name: '조건 지우기' }).click();
    await expect(page.locator('.audit-list')).toHaveAttribute('data-state', 'ready');
  };
  // Warm-up: the first queries of each kind open pages of the segment and JIT the page's code.
  for (let round = 0; round < 3; round++) {
    for (const [name, value] of cases) {
      await timedFilter(page, name, value);
      await clear();
    }
  }
  const figures: string[] = [];
  for (const [name, value] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { ms, rows } = await timedFilter(page, name, value);
      expect(rows, `${name}=${value}`).toBeGreaterThan(0);
      times.push(ms);
      await clear();
    }
    const median = [...times].sort((a, b) => a - b)[1] as number;
    figures.push(`${name}=${value}: ${times.map((t) => t.toFixed(0)).join(' / ')} ms`);
    expect(median, `${name}=${value} took ${times.join(', ')} ms`).toBeLessThan(BUDGET_MS);
  }
  console.log(`[audit-viewer 100k] filter → rows painted (3 runs each): ${figures.join('; ')}`);
});
