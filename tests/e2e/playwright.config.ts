import { defineConfig } from '@playwright/test';

/**
 * E2E tests of the window in Debian's Chromium (the Electron binary cannot run here): each test
 * opens the preview harness (tests/helpers/preview-harness.ts: real session, real ledger,
 * scripted model) and drives the built renderer (run `electron-vite build` first; `npm run e2e`
 * does). Screenshots of the screens go to test-results/screens/.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../../test-results/e2e',
  timeout: 90_000,
  // The machines that run this are often loaded: a real 150-file move plus axe can take seconds.
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  reporter: [['list'], ['../reporters/playwright-summary.ts']],
  use: {
    browserName: 'chromium',
    locale: 'ko-KR',
    viewport: { width: 1100, height: 760 },
    launchOptions: {
      executablePath: process.env['BARAM_CHROMIUM'] ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
