import { createHash } from 'node:crypto';
import type { AuditEventInput } from '../../electron/common/audit-events';
import { canonicalJson } from '../../electron/common/canonical-json';

/**
 * The row the gate writes most often, as the ledger receives it: `tool.proposed` for an edit of a
 * Korean office spreadsheet, arguments about 300 bytes of canonical JSON (gate/audit-args.ts keeps
 * arguments inline up to 512 characters), plus their SHA-256. `marker` is stored in the data so a
 * test can find exactly this row again.
 */
export function toolProposedEvent(marker: string, n: number): AuditEventInput {
  const args = {
    path: `C:\\Users\\kim.minsu\\Documents\\재무팀\\2026년 예산\\${1 + (n % 4)}분기_부서별_예산_집행_보고서(최종).xlsx`,
    sheet: '부서별 집행 현황',
    cell: `D${12 + (n % 200)}`,
    oldText: '예산 대비 집행률 87.5%',
    newText: `예산 대비 집행률 ${(80 + (n % 20)).toFixed(1)}% (${n}차 수정)`,
  };
  const callId = createHash('sha256').update(marker).digest('hex').slice(0, 32);
  return {
    type: 'tool.proposed',
    callId: `${callId.slice(0, 8)}-${callId.slice(8, 12)}-${callId.slice(12, 16)}-${callId.slice(16, 20)}-${callId.slice(20)}`,
    tool: 'excel.write',
    risk: 'write',
    actionClass: '수정',
    data: { marker, args, argsSha256: createHash('sha256').update(canonicalJson(args)).digest('hex') },
  };
}

/** The `marker` a row body carries (see toolProposedEvent), or undefined for any other row. */
export function markerOf(body: string): string | undefined {
  const parsed = JSON.parse(body) as { data?: { marker?: unknown } };
  return typeof parsed.data?.marker === 'string' ? parsed.data.marker : undefined;
}
