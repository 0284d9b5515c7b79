import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { startPreviewHarness, type PreviewHarness } from '../helpers/preview-harness';
import { textTurn } from '../helpers/scripted-model-server';

/**
 * Another site open in the same browser must not drive Baram: it cannot call the API (even
 * knowing the token), cannot start a run with a "simple" no-cors request, and cannot frame the
 * page (frame-ancestors 'none').
 */
let harness: PreviewHarness | null = null;
let foreign: http.Server | null = null;
test.afterEach(async () => {
  await harness?.close();
  harness = null;
  await new Promise<void>((done) => (foreign ? foreign.close(() => done()) : done()));
  foreign = null;
});

async function startForeign(html: string): Promise<string> {
  foreign = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((done) => foreign!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`;
}

test('a page from another origin cannot call the API, start a run, or frame the app', async ({ page }) => {
  harness = await startPreviewHarness({ turns: [textTurn('should never be asked')] });
  const { origin, token, url } = harness;
  await page.goto(await startForeign(`<!doctype html><title>elsewhere</title><iframe id="f" src="${url}"></iframe>`));

  const withToken = await page.evaluate(
    async ({ origin, token }) => {
      try {
        const r = await fetch(`${origin}/__baram/invoke/app:info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-baram-token': token }, body: '{}' });
        return `status ${r.status}`;
      } catch {
        return 'blocked';
      }
    },
    { origin, token },
  );
  expect(withToken).toBe('blocked'); // the preflight gets no CORS answer

  await page.evaluate(
    async ({ origin }) => {
      await fetch(`${origin}/__baram/invoke/chat:send`, { method: 'POST', mode: 'no-cors', body: '{"text":"delete everything"}' }).catch(() => undefined);
    },
    { origin },
  );
  await page.waitForTimeout(300);
  expect(harness.model.chatRequests()).toHaveLength(0);

  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  await expect.poll(async () => (await frame!.evaluate(() => typeof (globalThis as { baram?: unknown }).baram).catch(() => 'inaccessible'))).not.toBe('object');
});
