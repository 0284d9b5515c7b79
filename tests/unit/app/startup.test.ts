import { describe, expect, it } from 'vitest';
import { devCspNonce, uiLang } from '../../../electron/main/app/startup';
import { secureWebPreferences } from '../../../electron/main/app/web-preferences';

describe('startup settings', () => {
  it('starts in Korean unless BARAM_LANG=en', () => {
    expect(uiLang(undefined)).toBe('ko');
    expect(uiLang('en')).toBe('en');
    expect(uiLang('ko')).toBe('ko');
    expect(uiLang('EN')).toBe('ko');
    expect(uiLang('fr')).toBe('ko');
  });

  it('takes a dev nonce only with the dev server and only if it cannot widen the policy', () => {
    expect(devCspNonce('abcdefghijklmnopqrstuvwx', true)).toBe('abcdefghijklmnopqrstuvwx');
    expect(devCspNonce('abcdefghijklmnopqrstuvwx', false)).toBeUndefined();
    expect(devCspNonce(undefined, true)).toBeUndefined();
    expect(devCspNonce("x'; script-src *; '", true)).toBeUndefined();
    expect(devCspNonce('short', true)).toBeUndefined();
  });
});

describe('window web preferences', () => {
  it('follow the Electron security checklist', () => {
    expect(secureWebPreferences('/app/out/preload/index.cjs', { devTools: false })).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: false,
    });
  });
});
