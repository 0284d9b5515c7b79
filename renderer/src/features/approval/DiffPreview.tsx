import { useMemo } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import { t } from '../../i18n';
import { diffLines, previewIsDiff, type DiffLine } from './diff-lines';

/**
 * The change an edit or overwrite makes, line by line. Added and removed lines are coloured AND
 * carry a visible +/− mark and a spoken word ("추가"/"삭제"), so the difference does not rest on
 * colour alone (colour-blind readers, screen readers). The box scrolls and takes focus, so the
 * keyboard can scroll it too.
 */
export function DiffPreview({ tool, preview, lang }: { readonly tool: string; readonly preview: string; readonly lang: Lang }) {
  const lines = useMemo(() => (previewIsDiff(tool) ? diffLines(preview) : null), [tool, preview]);
  return (
    <section className="approval-preview" aria-labelledby="approval-preview-title">
      <h3 id="approval-preview-title">{t('approvalPreview', lang)}</h3>
      {lines === null ? (
        <pre className="diff plain" tabIndex={0}>
          {preview}
        </pre>
      ) : (
        <div className="diff" role="group" aria-labelledby="approval-preview-title" tabIndex={0}>
          {lines.map((line, i) => (
            <Line key={i} line={line} lang={lang} />
          ))}
        </div>
      )}
    </section>
  );
}

const MARKS: Readonly<Record<DiffLine['kind'], string>> = { added: '+', removed: '−', context: ' ', hunk: '', note: '' };

function Line({ line, lang }: { readonly line: DiffLine; readonly lang: Lang }) {
  const spoken = line.kind === 'added' ? t('diffAdded', lang) : line.kind === 'removed' ? t('diffRemoved', lang) : null;
  return (
    <div className={`diff-line diff-${line.kind}`} data-kind={line.kind}>
      <span className="diff-mark" aria-hidden="true">
        {MARKS[line.kind]}
      </span>
      {spoken && <span className="visually-hidden">{spoken}: </span>}
      <span className="diff-text">{line.text === '' ? '\u00a0' : line.text}</span>
    </div>
  );
}
