import { describe, expect, it } from 'vitest';
import { createBaramApi, IPC_CHANNELS, IPC_EVENTS, isIpcChannel, type IpcChannel } from '../../../electron/common/ipc-contract';
import { isValidRequest } from '../../../electron/common/ipc-validate';

describe('IPC contract', () => {
  it('lists exactly the channels of the contract map', () => {
    expect([...IPC_CHANNELS].sort()).toEqual(
      [
        'app:info', 'approval:answer', 'approval:pending', 'chat:send', 'chat:stop', 'conversations:list', 'conversations:load', 'tools:list',
        'audit:checkpoint', 'audit:export', 'audit:page', 'audit:verify',
        'grants:list', 'grants:revoke', 'model:check', 'model:status', 'model:use', 'policy:view', 'settings:get', 'settings:set-lang',
        'notices:list',
      ].sort(),
    );
    expect([...IPC_EVENTS].sort()).toEqual(['app:notice', 'approval:closed', 'approval:request', 'chat:event']);
    expect(isIpcChannel('app:info')).toBe(true);
    expect(isIpcChannel('toString')).toBe(false); // inherited names are not channels
    expect(isIpcChannel('shell:open')).toBe(false);
  });

  it('audit requests: filters and pages as the engine takes them; a path or an unknown field never', () => {
    expect(isValidRequest('audit:page', { filter: {} })).toBe(true);
    expect(isValidRequest('audit:page', { filter: { fromTime: '2026-12-01T09:00+09:00', toTime: '2026-12-02T00:00:00.000Z', outcome: 'denied', decision: 'ask', text: '보고서' }, limit: 100, beforeSeq: 5 })).toBe(true);
    for (const bad of [{}, { filter: { sql: '1' } }, { filter: { outcome: 'maybe' } }, { filter: { fromTime: '2026-12-01 09:00' } }, { filter: {}, limit: 201 }, { filter: { text: '' } }, { filter: { text: 'x'.repeat(201) } }]) {
      expect(isValidRequest('audit:page', bad), JSON.stringify(bad)).toBe(false);
    }
    expect(isValidRequest('audit:export', { format: 'cef', lang: 'en' })).toBe(true);
    expect(isValidRequest('audit:export', { format: 'csv', path: '/tmp/x.csv' })).toBe(false);
    expect(isValidRequest('audit:export', { format: 'xlsx' })).toBe(false);
    expect(isValidRequest('audit:checkpoint', { take: false })).toBe(true);
    expect(isValidRequest('audit:checkpoint', {})).toBe(false);
  });

  it('accepts only the empty object as a no-argument request', () => {
    expect(isValidRequest('app:info', {})).toBe(true);
    expect(isValidRequest('tools:list', Object.create(null))).toBe(true);
    for (const bad of [undefined, null, [], 'x', 1, { extra: 1 }, { [Symbol('s')]: 1 }, new Date(0), new Map()]) {
      expect(isValidRequest('tools:list', bad)).toBe(false);
    }
  });

  it('checks each request against its schema: types, lengths, enums, no extra keys', () => {
    expect(isValidRequest('chat:send', { text: '엑셀 파일을 정리해줘' })).toBe(true);
    expect(isValidRequest('chat:send', { text: 'x', conversationId: 'abc' })).toBe(true);
    expect(isValidRequest('chat:send', { text: '' })).toBe(false);
    expect(isValidRequest('chat:send', { text: 'x', admin: true })).toBe(false);
    expect(isValidRequest('approval:answer', { callId: 'c', digest: 'd', choice: 'deny', reason: '아니요' })).toBe(true);
    expect(isValidRequest('approval:answer', { callId: 'c', digest: 'd', choice: 'always' })).toBe(false);
    expect(isValidRequest('chat:stop', { runId: 7 })).toBe(false);
  });
});

describe('createBaramApi', () => {
  it('exposes one function per channel and nothing else, frozen', () => {
    const api = createBaramApi(async () => ({ ok: true, value: null }), () => () => undefined);
    expect(Object.keys(api).sort()).toEqual([...IPC_CHANNELS, 'on'].sort());
    expect(Object.values(api).every((f) => typeof f === 'function')).toBe(true);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('passes channel and request to the transport and returns its answer untouched', async () => {
    const calls: [IpcChannel, unknown][] = [];
    const api = createBaramApi(async (channel, request) => {
      calls.push([channel, request]);
      return { ok: true, value: { version: '9.9.9', lang: 'en' } };
    }, () => () => undefined);
    await expect(api['app:info']({})).resolves.toEqual({ ok: true, value: { version: '9.9.9', lang: 'en' } });
    await api['tools:list']({});
    expect(calls).toEqual([
      ['app:info', {}],
      ['tools:list', {}],
    ]);
  });
});

describe('createBaramApi events', () => {
  it('subscribes to contract events only and hands over the payload', () => {
    const subscribed: string[] = [];
    let deliver: (payload: unknown) => void = () => undefined;
    const api = createBaramApi(
      async () => null,
      (event, listener) => {
        subscribed.push(event);
        deliver = listener;
        return () => subscribed.push(`-${event}`);
      },
    );
    const got: unknown[] = [];
    const off = api.on('approval:closed', (p) => got.push(p));
    deliver({ callId: 'c' });
    off();
    expect(got).toEqual([{ callId: 'c' }]);
    expect(subscribed).toEqual(['approval:closed', '-approval:closed']);
    expect(() => api.on('shell:open' as never, () => undefined)).toThrow(TypeError);
  });
});
