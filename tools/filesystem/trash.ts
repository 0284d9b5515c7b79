import { Type } from '@sinclair/typebox';
import { pick, text } from '../../electron/common/i18n';
import { defineTool } from '../kit/define-tool';
import { localTime, LIST_CAP, humanSize, cappedLines } from '../kit/format';
import { fromHostError, ok } from '../kit/results';
import { displayOf } from '../kit/targets';

/**
 * What is in Baram's trash (issue 15 item 3): an office worker asks "what did I delete?", and the
 * model needs trashIds to restore. Newest first, with where each item came from.
 */
export const filesystemTrash = defineTool({
  name: 'filesystem.trash',
  description: {
    ko: 'Baram 휴지통에 있는 항목(지운 파일과 폴더)을 최근 것부터 봅니다: trashId, 원래 자리, 지운 시각. 되돌리기는 filesystem.restore.',
    en: "List what is in Baram's trash, newest first: trashId, original place, when it was deleted. Restore with filesystem.restore.",
  },
  keywords: ['휴지통 목록', '휴지통 보기', 'trash list', 'recycle bin'],
  input: Type.Object({}, { additionalProperties: false }),
  risk: 'read',
  subject: null,
  concurrency: 'parallel-safe',
  capabilities: ['files'],

  summarize: () => text('휴지통 목록을 봅니다', 'Lists the trash'),

  async execute(_args, ctx) {
    const { files, lang } = ctx;
    try {
      const entries = await files.trashList();
      if (entries.length === 0) return ok(pick(text('Baram 휴지통이 비어 있습니다.', "Baram's trash is empty."), lang), { count: 0 });
      const lines = entries.map(
        (e) => `${e.trashId}  ${displayOf(files, e.originalPath)}${e.type === 'directory' ? '/' : ''}  (${e.type === 'directory' ? '' : `${humanSize(e.size)}, `}${localTime(Date.parse(e.deletedAt))})`,
      );
      const headline = pick(text(`휴지통: 항목 ${entries.length}개 (최근 것부터)`, `Trash: ${entries.length} item(s), newest first`), lang);
      return ok([headline, ...cappedLines(lines, lang, LIST_CAP)].join('\n'), { count: entries.length, trashIds: entries.slice(0, LIST_CAP).map((e) => e.trashId) });
    } catch (e) {
      return fromHostError(lang, e);
    }
  },
});
