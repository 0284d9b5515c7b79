import type { AuditEventType } from '../../../common/audit-events';
import type { Text } from '../../../common/i18n';
import type { EventFields } from './event-fields';
import { escapeText } from './line-safe';
import { labelOf } from './value-labels';

/**
 * Human names of event types, for summaries (syslog, CEF, `baram audit tail`). Complete by type; a
 * row from a newer build with a type this build does not know shows as itself, never as nothing.
 */
const EVENT_TYPE_LABELS: Readonly<Record<AuditEventType, Text>> = {
  'session.start': { ko: '세션 시작', en: 'Session started' },
  'session.stop': { ko: '세션 종료', en: 'Session stopped' },
  request: { ko: '사용자 요청', en: 'User request' },
  'request.finished': { ko: '요청 처리 끝', en: 'Request finished' },
  'tool.proposed': { ko: '도구 호출 제안', en: 'Tool call proposed' },
  'permission.decided': { ko: '권한 판정', en: 'Permission decided' },
  'schema.violation': { ko: '입력 형식 위반', en: 'Schema violation' },
  'precheck.refused': { ko: '사전 점검 거부', en: 'Precheck refused' },
  'precheck.failed': { ko: '사전 점검 실패', en: 'Precheck failed' },
  'plan.refused': { ko: '실행 계획 거부', en: 'Plan refused' },
  'approval.requested': { ko: '승인 요청', en: 'Approval requested' },
  'approval.decided': { ko: '승인 결정', en: 'Approval decided' },
  'execution.started': { ko: '실행 시작', en: 'Execution started' },
  'execution.finished': { ko: '실행 완료', en: 'Execution finished' },
  'gate.error': { ko: '게이트 오류', en: 'Gate error' },
  'toolset.changed': { ko: '도구 목록 변경', en: 'Toolset changed' },
  'session.grant.revoked': { ko: '세션 허용 취소', en: 'Session grant revoked' },
  'mcp.server': { ko: 'MCP 서버', en: 'MCP server' },
  'audit.verify': { ko: '감사 기록 검증', en: 'Audit verified' },
  'audit.export': { ko: '감사 기록 내보내기', en: 'Audit exported' },
  'audit.checkpoint': { ko: '감사 체크포인트', en: 'Audit checkpoint' },
  'audit.seal': { ko: '감사 구간 봉인', en: 'Audit epoch sealed' },
  'audit.backup': { ko: '감사 기록 백업', en: 'Audit backed up' },
  'retention.deleted': { ko: '보존 기간 만료 삭제', en: 'Retention deletion' },
  'audit.write-failed': { ko: '감사 기록 실패', en: 'Audit write failed' },
};

export function eventTypeLabel(type: string): Text {
  return labelOf(EVENT_TYPE_LABELS, type);
}

/** A summary names one target; a long command line would otherwise push everything else off a SIEM's list view. */
const SUMMARY_TARGET_CHARS = 120;

/**
 * One line, Korean first then English labels: `실행 완료 / Execution finished · fs.write ·
 * C:\…\보고서.xlsx · 결과/outcome=ok`. Control characters become spaces so the summary is one line
 * whatever the target held; the exact values travel in the format's own fields.
 */
export function eventSummary(fields: EventFields): string {
  const label = eventTypeLabel(fields.type);
  const parts = [`${label.ko} / ${label.en}`];
  if (fields.tool !== '') parts.push(fields.tool);
  const first = fields.targets[0];
  if (first !== undefined && first !== '') {
    const more = fields.targets.length - 1;
    parts.push(clip(first, SUMMARY_TARGET_CHARS) + (more > 0 ? ` (외 ${more}건 / +${more} more)` : ''));
  }
  const pairs: [string, string][] = [
    ['결정/decision', fields.decision],
    ['승인자/approver', fields.approver],
    ['선택/choice', fields.choice],
    ['결과/outcome', fields.outcome],
    ['종료 코드/exit', fields.exitCode],
  ];
  for (const [name, value] of pairs) if (value !== '') parts.push(`${name}=${value}`);
  return oneLine(parts.join(' · '));
}

function clip(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * Bidi controls, zero-width characters and the BOM are not line breaks but change how the line
 * reads (`x\u202Etxt.exe` shows as `xexe.txt`): they are written as `\u202e` text (line-safe.ts),
 * in `baram audit tail` as in the exports (issue 14 class 11).
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `value` as one line of plain text: controls become spaces, invisible characters escape text. */
export function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(INVISIBLE, escapeText);
}
