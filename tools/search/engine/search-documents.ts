import type { FileErrorCode, TreeDocument } from '../../../electron/common/file-access';
import type { Lang } from '../../../electron/common/i18n';
import { ExtractionStopped, parseExtracted, type DocumentProblem, type ExtractedDocument, type Unit } from './document-extract';
import { excerpt } from './format';
import type { Query } from './query';
import { scanText, type LineHit } from './scan';

/**
 * One document of a search: its text from the host (cached, or extracted now), scanned unit by
 * unit, each finding named by where it stands instead of a line number:
 * `매출.xlsx:매출!B3:…`, `보고서.pdf:3쪽:…`, `견적서.docx:문단 12:…`, `기안문.hwp:표 1 2행:…`.
 */

export type DocumentOutcome =
  | { readonly kind: 'searched'; readonly findings: readonly string[]; readonly cut: boolean; readonly cached: boolean }
  | { readonly kind: 'problem'; readonly problem: DocumentProblem | 'timeout' | FileErrorCode }
  /** Not read: the search's time for reading documents was spent (a later search goes on). */
  | { readonly kind: 'pending' }
  | { readonly kind: 'cancelled' };

/** Excel's own way to name a sheet in a reference: quoted when it holds anything but letters and digits. */
function sheetRef(name: string): string {
  return /^[\p{L}\p{N}_.]+$/u.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

export function unitLabel(unit: Unit, doc: ExtractedDocument, lang: Lang): string {
  switch (unit[0]) {
    case 'cell':
      return `${sheetRef(doc.sheets?.[unit[1]] ?? String(unit[1] + 1))}!${unit[2]}`;
    case 'page':
      return lang === 'ko' ? `${unit[1]}쪽` : `page ${unit[1]}`;
    case 'para':
      return lang === 'ko' ? `문단 ${unit[1]}` : `paragraph ${unit[1]}`;
    case 'row':
      return lang === 'ko' ? `표 ${unit[1]} ${unit[2]}행` : `table ${unit[1]} row ${unit[2]}`;
  }
}

function unitText(unit: Unit): string {
  return unit[unit.length - 1] as string;
}

/** Findings of a document's units, at most `room` (the caller tells "capped" from one more). */
export function scanDocument(doc: ExtractedDocument, query: Query, room: number, lang: Lang): string[] {
  const findings: string[] = [];
  const hits: LineHit[] = [];
  for (const unit of doc.units) {
    if (findings.length >= room) break;
    hits.length = 0;
    scanText(unitText(unit), query, room - findings.length, hits);
    if (hits.length === 0) continue;
    const label = unitLabel(unit, doc, lang);
    for (const hit of hits) findings.push([label, excerpt(hit)].join(':'));
  }
  return findings;
}

export async function searchDocument(document: TreeDocument, query: Query, room: number, lang: Lang, options: { readonly signal: AbortSignal; readonly cachedOnly: boolean }): Promise<DocumentOutcome> {
  let answer;
  try {
    answer = await document.text({ signal: options.signal, cachedOnly: options.cachedOnly });
  } catch (e) {
    if (!(e instanceof ExtractionStopped)) throw e;
    return e.reason === 'cancelled' || options.signal.aborted ? { kind: 'cancelled' } : { kind: 'problem', problem: 'timeout' };
  }
  if (answer === null) return { kind: 'pending' };
  if (!answer.ok) return { kind: 'problem', problem: answer.code };
  const doc = parseExtracted(answer.text);
  if (doc === null) return { kind: 'problem', problem: 'damaged' };
  if (doc.problem !== undefined) return { kind: 'problem', problem: doc.problem };
  return { kind: 'searched', findings: scanDocument(doc, query, room, lang), cut: doc.cut === true, cached: answer.cached };
}
