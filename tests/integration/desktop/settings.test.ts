import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDesktopCore, type DesktopCore } from '../../../electron/main/desktop/desktop-core';
import { desktopSettingsFile } from '../../../electron/main/desktop/desktop-settings';
import { createBackend } from '../../../electron/main/model';
import { writeTinyGguf } from '../../../scripts/make-tiny-gguf';
import { startScriptedModelServer, type ScriptedModelServer } from '../../helpers/scripted-model-server';

/**
 * The settings channels on the real core (session, policy, gate): what is saved and read back at
 * the next start, what the policy refuses (never contacted), GGUF files among those allowed.
 */
let cores: DesktopCore[] = [];
let model: ScriptedModelServer | null = null;
let root = '';

afterEach(async () => {
  for (const c of cores) await c.close();
  cores = [];
  await model?.close();
  model = null;
  if (root) rmSync(root, { recursive: true, force: true });
});

async function setup(policy?: object) {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baram-settings-')));
  mkdirSync(join(root, 'ws'));
  const policyFile = policy ? join(root, 'policy.json') : undefined;
  if (policyFile) writeFileSync(policyFile, JSON.stringify(policy));
  model = await startScriptedModelServer({ shape: 'openai', turns: [] });
  const url = model.url;
  const open = async () => {
    const core = await openDesktopCore({
      session: { workspace: join(root, 'ws'), dataDir: join(root, 'data'), ...(policyFile ? { policyFile } : {}) },
      lang: 'ko',
      version: 't',
      model: () => ({ backend: createBackend(url), label: url }),
      emit: () => undefined,
    });
    cores.push(core);
    return core;
  };
  return { open, url };
}

describe('settings on the real core', () => {
  it('the language is saved and is the language of the next start', async () => {
    const { open } = await setup();
    const first = await open();
    expect(await first.handlers['app:info']({})).toMatchObject({ ok: true, value: { lang: 'ko' } });
    expect(await first.handlers['settings:set-lang']({ lang: 'en' })).toEqual({ ok: true, value: { lang: 'en' } });
    expect(await first.handlers['app:info']({})).toMatchObject({ ok: true, value: { lang: 'en' } });
    await first.close();
    const second = await open();
    expect(await second.handlers['settings:get']({})).toMatchObject({ ok: true, value: { lang: 'en' } });
  });

  it('a model the policy does not list is refused and never saved; a relative file path is refused in words', async () => {
    const { open, url } = await setup();
    const core = await open();
    const refused = await core.handlers['model:use']({ target: 'http://10.0.0.9:8080' });
    expect(refused).toMatchObject({ ok: true, value: { used: false } });
    if (refused.ok && !refused.value.used) expect(refused.value.message.en).toContain('has not allowed the model server http://10.0.0.9:8080');
    const relative = await core.handlers['model:check']({ target: 'models/qwen.gguf' });
    expect(relative).toMatchObject({ ok: true, value: { allowed: false, reachable: false } });
    if (relative.ok) expect(relative.value.message.ko).toContain('전체 경로');
    expect(await core.handlers['settings:get']({})).toMatchObject({ ok: true, value: { modelTarget: url, allowed: { endpoints: ['loopback'], files: [] } } });
    expect(() => readFileSync(desktopSettingsFile(join(root, 'data')))).toThrow();
  });

  it('GGUF files in an allowed folder are listed and checked from their header; the chosen one is used at the next start', async () => {
    root = '';
    const models = realpathSync(mkdtempSync(join(tmpdir(), 'baram-models-')));
    try {
      const tiny = writeTinyGguf(join(models, 'tiny.gguf'));
      const { open } = await setup({ version: 1, model: { endpoints: ['loopback'], files: [models] } });
      const core = await open();
      const view = await core.handlers['settings:get']({});
      expect(view).toMatchObject({ ok: true, value: { allowed: { files: [models], ggufFiles: [tiny] } } });
      const check = await core.handlers['model:check']({ target: tiny });
      expect(check).toMatchObject({ ok: true, value: { allowed: true, reachable: true, kind: 'embedded' } });
      const outside = await core.handlers['model:check']({ target: join(root, 'other.gguf') });
      expect(outside).toMatchObject({ ok: true, value: { allowed: false } });
      expect(await core.handlers['model:use']({ target: tiny })).toMatchObject({ ok: true, value: { used: true, status: { target: tiny, state: 'connected' } } });
      await core.close();
      const again = await open();
      expect(await again.handlers['settings:get']({})).toMatchObject({ ok: true, value: { modelTarget: tiny } });
    } finally {
      rmSync(models, { recursive: true, force: true });
    }
  });

  it('a saved model the policy no longer allows, or a damaged settings file, falls back to the model given at start', async () => {
    const { open, url } = await setup();
    mkdirSync(join(root, 'data'), { recursive: true });
    writeFileSync(desktopSettingsFile(join(root, 'data')), JSON.stringify({ model: 'http://10.0.0.9:8080', lang: 'en' }));
    const core = await open();
    expect(await core.handlers['settings:get']({})).toMatchObject({ ok: true, value: { modelTarget: url, lang: 'en' } });
    await core.close();
    writeFileSync(desktopSettingsFile(join(root, 'data')), '{ not json');
    const again = await open();
    expect(await again.handlers['settings:get']({})).toMatchObject({ ok: true, value: { modelTarget: url, lang: 'ko' } });
    expect(await again.handlers['grants:list']({})).toEqual({ ok: true, value: [] });
    expect(await again.handlers['grants:revoke']({ id: 'no-such-grant' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
