import { describe, expect, it } from 'vitest';
import { renderChanges } from '../../../tools/excel/book/edits';
import { renderDiff, wholeChange } from '../../../tools/kit/text-file';
import { diffLines, previewIsDiff } from '../../../renderer/src/features/approval/diff-lines';

describe('the approval dialog reads the gate preview', () => {
  it('a text overwrite: hunk, context, removed and added lines, as the tool renders them', () => {
    const oldLines = ['제목', '첫째 줄', '-둘째 줄', '끝'];
    const newLines = ['제목', '첫째 줄', '+새 둘째 줄', '끝'];
    const lines = diffLines(renderDiff(oldLines, wholeChange(oldLines, newLines), 'ko'));
    expect(lines.map((l) => [l.kind, l.text])).toEqual([
      ['hunk', '@@ -1,4 +1,4 @@'],
      ['context', '제목'],
      ['context', '첫째 줄'],
      ['removed', '-둘째 줄'],
      ['added', '+새 둘째 줄'],
      ['context', '끝'],
    ]);
  });

  it('excel cell changes read as the old value removed and the new one added', () => {
    const preview = renderChanges('매출', [{ ref: { row: 2, col: 2 }, before: '10', after: '12' }] as never, 'en');
    expect(diffLines(preview).map((l) => [l.kind, l.text])).toEqual([
      ['note', "sheet '매출': 1 cell(s) changed"],
      ['removed', 'B2: "10"'],
      ['added', 'B2: "12"'],
    ]);
  });

  it('only the edit and write tools have a diff preview', () => {
    expect(previewIsDiff('filesystem.write')).toBe(true);
    expect(previewIsDiff('excel.write')).toBe(true);
    expect(previewIsDiff('shell.execute')).toBe(false);
  });
});
