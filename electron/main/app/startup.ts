import { isLang, type Lang } from '../../common/i18n';

/**
 * Startup settings read from the environment. Pure, so the rules are tested without Electron.
 */

/** Korean unless BARAM_LANG=en (the settings screen will persist a choice later). */
export function uiLang(value: string | undefined): Lang {
  return isLang(value) ? value : 'ko';
}

/**
 * The dev-server nonce handed over by electron.vite.config.ts (it runs in the process that spawns
 * Electron). Honoured only with the dev server, and only if it looks like a nonce: anything else
 * in a CSP header could widen the policy.
 */
export function devCspNonce(value: string | undefined, usingDevServer: boolean): string | undefined {
  if (!usingDevServer || value === undefined) return undefined;
  return /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
}
