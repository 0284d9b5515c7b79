import { describe, expect, it } from 'vitest';
import type { AuditEventInput } from '../../../electron/common/audit-events';
import { buildEventBody, encodeEventBody, type LedgerIdentity, type StoredEventBody } from '../../../electron/main/audit/ledger/canonical-event';
import { toolProposedEvent } from '../../helpers/gate-audit-events';

const IDENTITY: LedgerIdentity = { sessionId: '7f3c9a12-5b1e-4c8d-9a0f-2e6d4b8c1a57', osUser: 'kim.minsu', appUser: '김민수', hostId: 'PC-101' };

/** buildEventBody as first written (one object spread): the reference for the Object.assign version. */
function referenceBody(seq: number, now: Date, identity: LedgerIdentity, event: AuditEventInput): StoredEventBody {
  return {
    ...event,
    sessionId: identity.sessionId,
    osUser: identity.osUser,
    appUser: identity.appUser,
    hostId: identity.hostId,
    seq,
    time: now.toISOString(),
    tzOffsetMinutes: 0 - now.getTimezoneOffset(),
  };
}

/** Same own properties, values, prototype and key order; and the same stored text. */
function expectSameBody(seq: number, now: Date, event: AuditEventInput): void {
  const actual = buildEventBody(seq, now, IDENTITY, event);
  const expected = referenceBody(seq, now, IDENTITY, event);
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  expect(Reflect.ownKeys(actual)).toEqual(Reflect.ownKeys(expected));
  expect(actual).toStrictEqual(expected);
  expect(encodeEventBody(actual)).toBe(encodeEventBody(expected));
}

describe('buildEventBody', () => {
  const now = new Date('2026-12-02T08:00:00.123Z');

  it('builds what the spread version built, for the events the gate writes', () => {
    for (let n = 1; n <= 50; n += 1) expectSameBody(n, now, toolProposedEvent(`r1-${n}`, n));
    expectSameBody(7, now, { type: 'request' });
    expectSameBody(8, now, { type: 'execution.finished', outcome: 'ok', target: ['C:\\Users\\김민수\\문서\\보고서.xlsx'], data: { ms: 12 } });
  });

  it('lets the ledger fields win over fields an event tries to supply, in the same key positions', () => {
    const forged = { type: 'request', seq: 999, time: '1999-01-01T00:00:00.000Z', sessionId: 'forged', data: {} } as unknown as AuditEventInput;
    expectSameBody(3, now, forged);
    expect(buildEventBody(3, now, IDENTITY, forged)).toMatchObject({ seq: 3, time: now.toISOString(), sessionId: IDENTITY.sessionId });
  });

  it('keeps an own "__proto__" key as data, as the spread did, instead of making it the prototype', () => {
    const parsed = JSON.parse('{"type":"request","__proto__":{"polluted":true}}') as AuditEventInput;
    expectSameBody(4, now, parsed);
    const body = buildEventBody(4, now, IDENTITY, parsed);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(encodeEventBody(body)).toContain('"__proto__":{"polluted":true}');
  });

  it('copies symbol keys and skips non-enumerable ones exactly like the spread', () => {
    const event = { type: 'request', [Symbol('tag')]: 1 } as unknown as AuditEventInput;
    Object.defineProperty(event, 'hidden', { value: 'x', enumerable: false });
    expectSameBody(5, now, event);
  });
});
