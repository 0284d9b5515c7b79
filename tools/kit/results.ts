import { pick, type Lang, type Text } from '../../electron/common/i18n';
import type { ToolOutcome, ToolResult } from '../../electron/common/tool-result';
import { isFileAccessError } from '../../electron/common/file-access';
import type { ReadOnlyFileAccess } from './define-tool';
import { explainFileError } from './targets';

export function ok(text: string, details?: Record<string, unknown>): ToolResult {
  return details ? { outcome: 'ok', text, details } : { outcome: 'ok', text };
}

export function fail(lang: Lang, message: Text, details?: Record<string, unknown>, outcome: ToolOutcome = 'error'): ToolResult {
  const text = pick(message, lang);
  return details ? { outcome, text, details } : { outcome, text };
}

/**
 * Turns an exception from a host capability into a result. FileAccessErrors become signpost
 * messages (with `files`, about the workspace-relative path); anything else is re-thrown, because
 * it is a bug and the gate records it as one.
 */
export function fromHostError(lang: Lang, e: unknown, files?: ReadOnlyFileAccess): ToolResult {
  if (isFileAccessError(e)) return fail(lang, explainFileError(e, files), { code: e.code });
  throw e;
}

/**
 * SPEC G-SCHEMA: an empty string for an optional pattern/filter means "no pattern". A model that
 * sends `namePattern: ""` must not match nothing (seed: 7 real xlsx files reported as "none").
 */
export function patternOrNone(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
