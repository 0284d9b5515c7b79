import { describe, expect, it } from 'vitest';
import { createBaramApi, IPC_CHANNELS, isIpcChannel, isValidRequest, type IpcChannel } from '../../../electron/common/ipc-contract';

describe('IPC contract', () => {
  it('lists exactly the channels of the contract map', () => {
    expect([...IPC_CHANNELS].sort()).toEqual(['app:info', 'tools:list']);
    expect(isIpcChannel('app:info')).toBe(true);
    expect(isIpcChannel('toString')).toBe(false); // inherited names are not channels
    expect(isIpcChannel('shell:open')).toBe(false);
  });

  it('accepts only the empty object as a no-argument request', () => {
    expect(isValidRequest('app:info', {})).toBe(true);
    expect(isValidRequest('tools:list', Object.create(null))).toBe(true);
    for (const bad of [undefined, null, [], 'x', 1, { extra: 1 }, { [Symbol('s')]: 1 }, new Date(0), new Map()]) {
      expect(isValidRequest('tools:list', bad)).toBe(false);
    }
  });
});

describe('createBaramApi', () => {
  it('exposes one function per channel and nothing else, frozen', () => {
    const api = createBaramApi(async () => ({ ok: true, value: null }));
    expect(Object.keys(api).sort()).toEqual([...IPC_CHANNELS].sort());
    expect(Object.values(api).every((f) => typeof f === 'function')).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('passes channel and request to the transport and returns its answer untouched', async () => {
    const calls: [IpcChannel, unknown][] = [];
    const api = createBaramApi(async (channel, request) => {
      calls.push([channel, request]);
      return { ok: true, value: { version: '9.9.9', lang: 'en' } };
    });
    await expect(api['app:info']({})).resolves.toEqual({ ok: true, value: { version: '9.9.9', lang: 'en' } });
    await api['tools:list']({});
    expect(calls).toEqual([
      ['app:info', {}],
      ['tools:list', {}],
    ]);
  });
});
