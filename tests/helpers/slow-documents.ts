import { rawZip } from './archive-zips';

/**
 * Documents made to be slow, built byte for byte in the test: a .docx whose document.xml is
 * `paragraphs` copies of one short paragraph. Tiny on disk (100,000 paragraphs: ~15 KB, ~5 MB of
 * XML, well inside every cap), yet mammoth spends tens of seconds on it: the crafted download the
 * parse thread exists for (docs/2026-12-03-document-parse-worker.md).
 */
export function slowDocx(paragraphs = 100_000): Uint8Array {
  const paragraph = '<w:p><w:r><w:t>보고서 문단</w:t></w:r></w:p>';
  return rawZip([
    {
      name: '[Content_Types].xml',
      content:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      content:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    {
      name: 'word/document.xml',
      content: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraph.repeat(paragraphs)}</w:body></w:document>`,
    },
  ]);
}

/** Resolves once `check` holds, looking again on each turn of the event loop (no time limit of its own: the test's applies). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}
