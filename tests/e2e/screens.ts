import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { Lang } from '../../electron/common/i18n';

/** Screenshots of every screen, ko and en, for review: test-results/screens/<screen>.<lang>.png. */
export const SCREENS_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'test-results', 'screens');

export async function screenshot(page: Page, screen: string, lang: Lang): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENS_DIR, `${screen}.${lang}.png`), fullPage: true });
}
