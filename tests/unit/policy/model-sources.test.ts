import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinPolicy, mergePolicies, modelSourceAllowed, parsePolicyText, parseUserSettings } from '../../../electron/main/policy';
import type { EffectivePolicy } from '../../../electron/main/policy/types';
import { effectiveFrom, inEnglish, tempWorld, type TempWorld } from './fixtures';

/** Issue 16: the admin policy decides which model servers and GGUF files Baram may use. */

let world: TempWorld;
let models: string;
beforeAll(async () => {
  world = await tempWorld();
  models = path.join(world.base, 'models');
  await mkdir(models);
  await writeFile(path.join(models, 'qwen3-4b.gguf'), 'x');
  await writeFile(path.join(world.outside, 'other.gguf'), 'x');
  // A link inside the allowed folder that leads out of it.
  await symlink(path.join(world.outside, 'other.gguf'), path.join(models, 'sneaky.gguf'));
});
afterAll(() => world.cleanup());

const url = (u: string) => ({ kind: 'url', url: u }) as const;
const gguf = (p: string) => ({ kind: 'file', path: p }) as const;
const allowed = (eff: EffectivePolicy, source: Parameters<typeof modelSourceAllowed>[1]) => modelSourceAllowed(eff, source).ok;

function withUser(fields: Record<string, unknown>, settings: Record<string, unknown>): ReturnType<typeof mergePolicies> {
  const admin = parsePolicyText(JSON.stringify({ version: 1, ...fields }), world.home);
  if (!admin.ok) throw new Error(JSON.stringify(admin.problems));
  const user = parseUserSettings(JSON.stringify(settings), world.home);
  if (!user.ok) throw new Error(JSON.stringify(user.problems));
  return mergePolicies(admin.value, 'admin', user.value);
}

describe('modelSourceAllowed', () => {
  it('no model section: servers on this computer (any port), no GGUF file at all', () => {
    const eff = mergePolicies(builtinPolicy(world.home), 'builtin');
    if (!eff.ok) throw new Error('builtin');
    for (const u of ['http://127.0.0.1:8080', 'http://localhost:11434/v1', 'http://[::1]:1234/', 'https://127.0.0.2:443/']) expect(allowed(eff.value, url(u)), u).toBe(true);
    for (const u of ['http://10.0.0.5:8080', 'http://localhost.evil.example:8080', 'http://127.0.0.1.nip.io/', 'file:///etc/passwd', 'not a url', 'http://user:pw@127.0.0.1:8080/']) {
      expect(allowed(eff.value, url(u)), u).toBe(false);
    }
    const refused = modelSourceAllowed(eff.value, gguf(path.join(models, 'qwen3-4b.gguf')));
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.message.en).toMatch(/The administrator has not allowed the model file .*qwen3-4b\.gguf\. Allowed files and folders: none\. To use another one, ask the administrator/);
      expect(refused.message.ko).toMatch(/관리자가 모델 파일 .*허용하지 않았습니다.*관리자에게/);
    }
  });

  it('listed endpoints are URL prefixes (scheme, host, port, path at a segment boundary); a section without loopback drops it', () => {
    const eff = effectiveFrom({ model: { endpoints: ['http://llm.intranet:8080/v1/'] } });
    expect(allowed(eff, url('http://llm.intranet:8080/v1/chat/completions'))).toBe(true);
    expect(allowed(eff, url('http://llm.intranet:8080/v10/'))).toBe(false);
    expect(allowed(eff, url('http://llm.intranet:8081/v1/'))).toBe(false);
    expect(allowed(eff, url('https://llm.intranet:8080/v1/'))).toBe(false);
    expect(allowed(eff, url('http://127.0.0.1:8080/'))).toBe(false);
    expect(allowed(eff, gguf(path.join(models, 'qwen3-4b.gguf')))).toBe(false);
  });

  it('listed files and folders: a folder covers the files below it, as written and after following links', () => {
    const eff = effectiveFrom({ model: { endpoints: ['loopback'], files: [models] } });
    expect(allowed(eff, gguf(path.join(models, 'qwen3-4b.gguf')))).toBe(true);
    expect(allowed(eff, gguf(path.join(models, 'sneaky.gguf')))).toBe(false);
    expect(allowed(eff, gguf(path.join(models, '..', 'outside', 'other.gguf')))).toBe(false);
    expect(allowed(eff, gguf('models/qwen3-4b.gguf'))).toBe(false);
    expect(allowed(eff, url('http://127.0.0.1:8080'))).toBe(true);
  });

  it('bad entries are policy problems at their JSON paths', () => {
    const r = parsePolicyText(JSON.stringify({ version: 1, model: { endpoints: ['ftp://x/', 'http://a:b@host/', 'loopback'], files: ['models/x.gguf'] } }), world.home);
    expect(r.ok ? [] : inEnglish(r.problems)).toEqual([
      { path: '$.model.endpoints[0]', message: expect.stringMatching(/is not a model server address/) },
      { path: '$.model.endpoints[1]', message: expect.stringMatching(/is not a model server address/) },
      { path: '$.model.files[0]', message: expect.stringMatching(/'models\/x\.gguf' is not an absolute file/) },
    ]);
  });
});

describe('user settings may narrow the model lists, never widen them', () => {
  it('a narrower list applies; the admin list still holds underneath', () => {
    const r = withUser({ model: { endpoints: ['loopback', 'http://llm.intranet:8080/'], files: [models] } }, { model: { endpoints: ['http://127.0.0.1:8080/'] } });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(allowed(r.value, url('http://127.0.0.1:8080/v1'))).toBe(true);
    expect(allowed(r.value, url('http://127.0.0.1:9999/'))).toBe(false);
    expect(allowed(r.value, url('http://llm.intranet:8080/'))).toBe(false);
    // Files were not narrowed: the administrator's stay.
    expect(allowed(r.value, gguf(path.join(models, 'qwen3-4b.gguf')))).toBe(true);
  });

  it('an entry outside the administrator’s is a problem at its path', () => {
    const r = withUser({ model: { endpoints: ['http://llm.intranet:8080/'], files: [models] } }, { model: { endpoints: ['loopback', 'http://llm.intranet:8080/v1/'], files: [world.outside] } });
    expect(r.ok ? [] : inEnglish(r.problems)).toEqual([
      { path: '$.model.endpoints[0]', message: expect.stringMatching(/^User settings may only narrow the model servers, and 'loopback' is outside the administrator's/) },
      { path: '$.model.files[0]', message: expect.stringMatching(/^User settings may only narrow the model files/) },
    ]);
  });
});
