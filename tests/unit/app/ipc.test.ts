import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, ipcFail, ipcOk } from '../../../electron/common/ipc-contract';
import { createAppHandlers } from '../../../electron/main/app/handlers';
import { registerIpcHandlers, sendEvent, type DispatchOptions, type EventFrame, type InvokeEvent, type IpcHandlers, type IpcProblem, type IpcRegistrar } from '../../../electron/main/app/ipc';
import { isTrustedSender, rendererSource } from '../../../electron/main/app/renderer-origin';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

/** ipcMain stand-in: Electron cannot run here, the dispatcher and the handlers are the real ones. */
class FakeIpcMain implements IpcRegistrar {
  readonly listeners = new Map<string, (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void {
    if (this.listeners.has(channel)) throw new Error(`second handler for ${channel}`); // as Electron does
    this.listeners.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.listeners.delete(channel);
  }
  invoke(channel: string, event: InvokeEvent, ...args: unknown[]): Promise<unknown> {
    const listener = this.listeners.get(channel);
    if (!listener) throw new Error(`No handler registered for '${channel}'`);
    return listener(event, ...args);
  }
}

const indexFile = join(tmpdir(), 'baram-app', 'out', 'renderer', 'index.html');
const source = rendererSource({ devServerUrl: undefined, isPackaged: true, indexFile });
const appPage = pathToFileURL(indexFile).href;
const fromApp: InvokeEvent = { senderFrame: { url: `${appPage}#/chat`, parent: null } };

function setup(handlers: IpcHandlers = createAppHandlers({ version: '1.2.3', lang: 'ko' })) {
  const ipc = new FakeIpcMain();
  const problems: IpcProblem[] = [];
  const options: DispatchOptions = { isTrustedSender: (frame) => isTrustedSender(frame, source), report: (p) => problems.push(p) };
  const unregister = registerIpcHandlers(ipc, handlers, options);
  return { ipc, problems, unregister };
}

describe('IPC dispatcher', () => {
  it('registers every contract channel and removes them again', () => {
    const { ipc, unregister } = setup();
    expect([...ipc.listeners.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    unregister();
    expect(ipc.listeners.size).toBe(0);
  });

  it('answers the app page with an ok result', async () => {
    const { ipc } = setup();
    await expect(ipc.invoke('app:info', fromApp, {})).resolves.toEqual({ ok: true, value: { version: '1.2.3', lang: 'ko' } });
  });

  it('refuses other pages, subframes and destroyed frames without running the handler', async () => {
    let ran = 0;
    const handlers: IpcHandlers = {
      'app:info': () => {
        ran++;
        return ipcOk({ version: '1', lang: 'ko' });
      },
      'tools:list': () => ipcOk([]),
      'notices:list': () => ipcOk([]),
      'settings:get': () => ipcOk({ lang: 'ko', modelTarget: null, allowed: { endpoints: [], files: [], ggufFiles: [] } }),
      'settings:set-lang': (r) => ipcOk({ lang: r.lang }),
      'model:status': () => ipcOk({ state: 'none', target: null, model: null, message: { ko: '', en: '' } }),
      'model:check': (r) => ipcOk({ target: r.target, allowed: false, reachable: false, model: null, kind: null, message: { ko: '', en: '' }, problems: [] }),
      'model:use': () => ipcOk({ used: false, message: { ko: '', en: '' } }),
      'policy:view': () => ipcFail('UNAVAILABLE', 'not in this test'),
      'grants:list': () => ipcOk([]),
      'grants:revoke': () => ipcOk({ revoked: 0 }),
      'chat:send': () => ipcOk({ runId: 'r' }),
      'chat:stop': () => ipcOk({ stopped: true }),
      'approval:pending': () => ipcOk([]),
      'conversations:list': () => ipcOk([]),
      'conversations:load': () => ipcOk({ id: 'c', title: 't', messages: [] }),
      'approval:answer': () => ipcOk({ accepted: true }),
      'audit:page': () => ipcOk({ events: [] }),
      'audit:verify': () => ipcOk({ ok: true, rows: 0, indexProblems: [], report: { ko: '', en: '' } }),
      'audit:export': () => ipcOk({ saved: false, cancelled: true }),
      'audit:checkpoint': () => ipcOk({}),
    };
    const { ipc, problems } = setup(handlers);
    const strangers: InvokeEvent[] = [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: pathToFileURL(join(tmpdir(), 'other.html')).href, parent: null } },
      { senderFrame: { url: appPage, parent: { url: appPage } } },
      { senderFrame: null },
    ];
    for (const event of strangers) {
      await expect(ipc.invoke('app:info', event, {})).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    }
    expect(ran).toBe(0);
    expect(problems.map((p) => p.kind)).toEqual(['forbidden-sender', 'forbidden-sender', 'forbidden-sender', 'forbidden-sender']);
  });

  it('rejects requests that do not match the contract', async () => {
    const { ipc } = setup();
    for (const args of [[], [{ path: '/etc/passwd' }], [null], [{}, 'extra']]) {
      await expect(ipc.invoke('tools:list', fromApp, ...args)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
    const badChat = [{}, { text: '' }, { text: 1 }, { text: 'hi', extra: true }, { text: 'x'.repeat(20_001) }];
    for (const request of badChat) {
      await expect(ipc.invoke('chat:send', fromApp, request)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
    const badAnswer = { callId: 'c', digest: 'd', choice: 'allow-forever' };
    await expect(ipc.invoke('approval:answer', fromApp, badAnswer)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('passes a contract-shaped request through to the handler (here: no session → UNAVAILABLE)', async () => {
    const { ipc } = setup();
    await expect(ipc.invoke('chat:send', fromApp, { text: '안녕' })).resolves.toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    const answer = { callId: 'c', digest: 'd', choice: 'deny', reason: '폴더가 틀렸어요' };
    await expect(ipc.invoke('approval:answer', fromApp, answer)).resolves.toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it('sends events only to the top-level frame showing the app page', () => {
    const sent: [string, unknown][] = [];
    const frame = (url: string, parent: unknown = null): EventFrame => ({ url, parent, send: (c, p) => sent.push([c, p]) });
    const trusted = (f: { url: string; parent: unknown } | null) => isTrustedSender(f, source);
    const payload = { callId: 'c1' };
    expect(sendEvent(frame(appPage), 'approval:closed', payload, trusted)).toBe(true);
    expect(sendEvent(frame('https://evil.example/'), 'approval:closed', payload, trusted)).toBe(false);
    expect(sendEvent(frame(appPage, {}), 'approval:closed', payload, trusted)).toBe(false);
    expect(sendEvent(null, 'approval:closed', payload, trusted)).toBe(false);
    expect(sent).toEqual([['approval:closed', payload]]);
  });

  it('turns a handler bug into INTERNAL without leaking its message to the page', async () => {
    const boom = new Error('secret path /home/kim/.ssh/id_rsa');
    const { ipc, problems } = setup({
      ...createAppHandlers({ version: '1', lang: 'ko' }),
      'app:info': () => {
        throw boom;
      },
      'tools:list': async () => Promise.reject(boom),
    });
    for (const channel of ['app:info', 'tools:list'] as const) {
      const result = (await ipc.invoke(channel, fromApp, {})) as { ok: boolean; error: { code: string; message: string } };
      expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
      expect(result.error.message).not.toContain('secret');
    }
    expect(problems).toEqual([
      { kind: 'handler-error', channel: 'app:info', error: boom },
      { kind: 'handler-error', channel: 'tools:list', error: boom },
    ]);
  });
});

describe('app handlers', () => {
  it("tools:list says UNAVAILABLE when no catalog is connected (not an empty list)", async () => {
    const { ipc } = setup(createAppHandlers({ version: '1', lang: 'ko' }));
    await expect(ipc.invoke('tools:list', fromApp, {})).resolves.toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it('tools:list sends summaries only: extra fields of the catalog stay in main', async () => {
    const catalogEntry = {
      name: 'filesystem.read',
      family: 'filesystem',
      risk: 'read' as const,
      description: { ko: '파일을 읽습니다', en: 'Reads a file' },
      schema: { type: 'object' },
      execute: () => 'never sent',
    };
    const { ipc } = setup(createAppHandlers({ version: '1', lang: 'en', listTools: () => [catalogEntry] }));
    await expect(ipc.invoke('tools:list', fromApp, {})).resolves.toStrictEqual({
      ok: true,
      value: [{ name: 'filesystem.read', family: 'filesystem', risk: 'read', description: { ko: '파일을 읽습니다', en: 'Reads a file' } }],
    });
  });
});
