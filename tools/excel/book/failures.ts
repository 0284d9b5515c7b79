import type { Lang } from '../../../electron/common/i18n';
import type { ToolResult } from '../../../electron/common/tool-result';
import type { ReadOnlyFileAccess } from '../../kit/define-tool';
import { fail, fromHostError } from '../../kit/results';
import { problemText } from './problems';
import { BookDamaged } from './window';
import { TooLargeSheet, XLSX_LIMITS } from './xlsx';

/**
 * An exception from reading a workbook as a result: damaged content and an over-large sheet are
 * expected outcomes with signposts; host errors become the usual file messages; anything else is
 * a bug and propagates to the gate (fromHostError re-throws it).
 */
export function readFailure(lang: Lang, e: unknown, files: ReadOnlyFileAccess, shown: string): ToolResult {
  if (e instanceof BookDamaged) return fail(lang, problemText({ problem: 'damaged' }, shown), { damaged: true, cause: e.message.slice(0, 300) });
  if (e instanceof TooLargeSheet) return fail(lang, problemText({ problem: 'too-large', limit: XLSX_LIMITS.sheetXmlBytes }, shown));
  return fromHostError(lang, e, files);
}
