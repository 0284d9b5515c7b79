import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The committed document fixtures (tests/fixtures/documents, made by
 * scripts/make-document-fixtures-writer.sh from LibreOffice, node-hwp's and kordoc's real files).
 */
export const DOCUMENT_FIXTURES = join(__dirname, '..', 'fixtures', 'documents');

/** Workspace files for useTestGate: each name → the fixture's bytes (optionally under another name). */
export function documentFiles(...names: readonly (string | readonly [fixture: string, as: string])[]): Record<string, Uint8Array> {
  return Object.fromEntries(
    names.map((n) => {
      const [fixture, as] = typeof n === 'string' ? [n, n] : n;
      return [as, readFileSync(join(DOCUMENT_FIXTURES, fixture))];
    }),
  );
}
