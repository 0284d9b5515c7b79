import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcEventName } from '../../../electron/common/ipc-contract';
import { openDesktopCore, type DesktopCore } from '../../../electron/main/desktop/desktop-core';
import { createBackend } from '../../../electron/main/model';
import { chunk, sse, startScriptedModelServer, type ScriptedModelServer } from '../../helpers/scripted-model-server';

/** The core behind the window, without a window: real session and ledger, scripted model. */
let core: DesktopCore | null = null;
let model: ScriptedModelServer | null = null;
let root = '';

afterEach(async () => {
  await core?.close();
  await model?.close();
  core = null;
  model = null;
  if (root) rmSync(root, { recursive: true, force: true });
});

async function open(withModel: boolean) {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'baram-core-')));
  mkdirSync(join(root, 'ws'));
  const events: [IpcEventName, unknown][] = [];
  const held = sse([chunk.role(), chunk.content('생각 중')], { done: false, end: 'hold' });
  model = await startScriptedModelServer({ shape: 'openai', turns: [held] });
  const url = model.url;
  core = await openDesktopCore({
    session: { workspace: join(root, 'ws'), dataDir: join(root, 'data') },
    lang: 'ko',
    version: 't',
    ...(withModel ? { model: () => ({ backend: createBackend(url), label: url }) } : {}),
    emit: (event, payload) => events.push([event, payload]),
  });
  return { core, events };
}

describe('desktop core', () => {
  it('runs one request at a time, stops it by id, and reports the stop as a chat event', async () => {
    const { core, events } = await open(true);
    const first = await core.handlers['chat:send']({ text: '보고서를 요약해줘' });
    if (!first.ok) throw new Error('send failed');
    expect(await core.handlers['chat:send']({ text: '또 하나' })).toMatchObject({ ok: false, error: { code: 'BUSY' } });
    expect(await core.handlers['chat:stop']({ runId: 'nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    await expect.poll(() => events.some(([, p]) => (p as { type?: string }).type === 'text')).toBe(true);
    expect(await core.handlers['chat:stop']({ runId: first.value.runId })).toEqual({ ok: true, value: { stopped: true } });
    await expect.poll(() => events.find(([, p]) => (p as { type?: string }).type === 'done')?.[1]).toMatchObject({ runId: first.value.runId, status: 'cancelled' });
    const list = await core.handlers['conversations:list']({});
    expect(list).toMatchObject({ ok: true, value: [{ title: '보고서를 요약해줘', status: 'cancelled' }] });
  });

  it('without a model: chat is UNAVAILABLE, the rest answers', async () => {
    const { core } = await open(false);
    expect(await core.handlers['chat:send']({ text: 'x' })).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(await core.handlers['approval:pending']({})).toEqual({ ok: true, value: [] });
    expect(await core.handlers['approval:answer']({ callId: 'c', digest: 'd', choice: 'deny' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
