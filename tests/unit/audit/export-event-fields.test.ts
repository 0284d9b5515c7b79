import { describe, expect, it } from 'vitest';
import { eventFields } from '../../../electron/main/audit/export/event-fields';
import { auditSeverity } from '../../../electron/main/audit/export/severity';
import type { StoredEventBody } from '../../../electron/main/audit/ledger/canonical-event';
import {
  APPROVAL,
  FAILED_NEGATIVE_EXIT,
  FINISHED,
  GATE_ERROR,
  PERMISSION_DENIED,
  PROPOSED,
  READ_OK,
  REQUEST,
  row,
  STARTED,
} from './export-fixtures';

describe('eventFields', () => {
  it('writes local time with the stored offset, east and west of UTC', () => {
    expect(eventFields(PROPOSED).localTime).toBe('2026-12-02T23:05:11.123+09:00');
    expect(eventFields({ ...PROPOSED, tzOffsetMinutes: -210 }).localTime).toBe('2026-12-02T10:35:11.123-03:30');
    expect(eventFields({ ...PROPOSED, tzOffsetMinutes: 0 }).localTime).toBe('2026-12-02T14:05:11.123+00:00');
    // Crossing midnight and a month end.
    expect(eventFields({ ...PROPOSED, time: '2026-11-30T20:00:00.000Z' }).localTime).toBe('2026-12-01T05:00:00.000+09:00');
  });

  it('shows no local time or epoch for a malformed time or offset, and keeps the raw time', () => {
    const bad = eventFields({ ...PROPOSED, time: '2026-02-30T00:00:00.000Z' });
    expect([bad.time, bad.timeEpochMs, bad.localTime]).toEqual(['2026-02-30T00:00:00.000Z', '', '']);
    expect(eventFields({ ...PROPOSED, tzOffsetMinutes: 1200 }).localTime).toBe('');
    expect(eventFields({ ...PROPOSED, tzOffsetMinutes: 1.5 }).localTime).toBe('');
    expect(eventFields(PROPOSED).timeEpochMs).toBe(String(Date.parse('2026-12-02T14:05:11.123Z')));
  });

  it('takes the exit code from data or from the tool details', () => {
    expect(eventFields(FINISHED).exitCode).toBe('0');
    expect(eventFields(FAILED_NEGATIVE_EXIT).exitCode).toBe('-1');
    expect(eventFields(FINISHED).durationMs).toBe('842');
  });

  it('never yields undefined text, even for a damaged row with wrong types', () => {
    const damaged = {
      ...REQUEST,
      type: 'approval.decided',
      target: ['ok', 7, null, { a: 1 }],
      data: { approver: { name: 'x' }, waitedMs: 'soon', choice: undefined },
    } as unknown as StoredEventBody;
    const fields = eventFields(damaged);
    expect(fields.targets).toEqual(['ok', '7', '', '{"a":1}']);
    expect(fields.approver).toBe('{"name":"x"}');
    expect(fields.waitedMs).toBe('soon');
    expect(fields.choice).toBe('');
    for (const value of Object.values(fields)) expect(String(value)).not.toMatch(/undefined|\[object/);
  });
});

describe('auditSeverity', () => {
  it.each([
    ['gate.error', GATE_ERROR, 'error'],
    ['denied permission', PERMISSION_DENIED, 'warning'],
    ['failed execution', FAILED_NEGATIVE_EXIT, 'warning'],
    ['approval denied', row(30, { type: 'approval.decided', data: { choice: 'deny', approver: 'x', waitedMs: 1 } }), 'warning'],
    ['precheck refusal', row(31, { type: 'precheck.refused', tool: 'fs.read', risk: 'read' }), 'warning'],
    ['unknown outcome', { ...FINISHED, outcome: 'exploded' } as unknown as StoredEventBody, 'warning'],
    ['successful read', READ_OK, 'info'],
    ['approval granted', APPROVAL, 'notice'],
    ['execution started', STARTED, 'notice'],
    ['proposed write', PROPOSED, 'notice'],
    ['user request', REQUEST, 'notice'],
  ])('%s → %s', (_name, body, expected) => {
    expect(auditSeverity(body)).toBe(expected);
  });
});
