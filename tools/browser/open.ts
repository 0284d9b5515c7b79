import { Type } from '@sinclair/typebox';
import { pick, text } from '../../electron/common/i18n';
import { blockedNote, browserFailure } from '../kit/browser-results';
import { defineTool, failure } from '../kit/define-tool';
import { textBudget } from '../kit/document-window';

const input = Type.Object(
  {
    url: Type.String({ description: 'Page address (http/https), under an allowed prefix.' }),
  },
  { additionalProperties: false },
);

/** Room for the title, address and notes above and below the page text. */
const HEAD_RESERVE = 600;

export const browserOpen = defineTool({
  name: 'browser.open',
  description: {
    ko: '허용된 사내 웹 페이지를 브라우저로 열어(자바스크립트 실행) 제목과 본문 글을 가져옵니다.',
    en: 'Open an allowed intranet page in a browser (runs JavaScript); returns its title and text.',
  },
  keywords: ['웹페이지', '웹 페이지', '인트라넷', '사이트 열어', '페이지 열어', '공지사항', '그룹웨어', '게시판', '브라우저', '내용 알려줘', 'browser', 'web page', 'open page', 'intranet', 'website', 'javascript page'],
  input,
  risk: 'network',
  subject: { kind: 'URL', fields: ['url'] },
  // One browser at a time: each call starts its own, and two at once crowd a 2-core office PC.
  concurrency: 'exclusive',
  capabilities: ['browser'],

  precheck(args, ctx) {
    const refused = ctx.browser.check(args.url);
    return refused ? failure(refused.message) : null;
  },

  /** The approval shows the page; the browser capability opens only that URL. */
  plan: async (args) => ({ targets: [], destination: args.url, network: { kind: 'url', url: args.url } }),

  summarize: (args) => text(`브라우저로 ${args.url} 페이지를 열어 내용을 읽습니다`, `Opens ${args.url} in a browser and reads its text`),

  async execute(args, ctx) {
    const budget = Math.max(200, textBudget(ctx) - HEAD_RESERVE);
    const outcome = await ctx.browser.open({ url: args.url, signal: ctx.signal, maxTextChars: budget });
    if (outcome.outcome !== 'page') return browserFailure(ctx.lang, outcome);
    const line = (ko: string, en: string) => pick(text(ko, en), ctx.lang);
    const head = [`# ${outcome.title || line('(제목 없음)', '(no title)')}`, outcome.url];
    if (outcome.status >= 400) head.push(line(`[HTTP 상태: ${outcome.status}]`, `[HTTP status: ${outcome.status}]`));
    const body = outcome.text === '' ? line('(페이지에 읽을 수 있는 글이 없습니다. 화면이 필요하면 browser.screenshot을 쓰세요.)', '(The page has no readable text. Use browser.screenshot to see it.)') : outcome.text;
    const notes: string[] = [];
    if (outcome.truncated) {
      notes.push(line(`[페이지 글이 길어 앞부분 ${outcome.text.length}자만 보여 줍니다; 전체 ${outcome.totalChars}자]`, `[page text cut at ${outcome.text.length} of ${outcome.totalChars} characters]`));
    }
    if (outcome.partial) notes.push(line('[페이지가 제한 시간 안에 다 열리지 않아 그때까지 나온 내용입니다]', '[the page had not finished loading in time; this is what had rendered]'));
    const blocked = blockedNote(outcome.blocked, outcome.popupsClosed);
    if (blocked) notes.push(pick(blocked, ctx.lang));
    const details = {
      url: outcome.url,
      status: outcome.status,
      title: outcome.title,
      chars: outcome.text.length,
      totalChars: outcome.totalChars,
      truncated: outcome.truncated,
      partial: outcome.partial,
      blocked: outcome.blocked.count,
      blockedOrigins: outcome.blocked.origins,
      overLimit: outcome.blocked.overLimit,
      popupsClosed: outcome.popupsClosed,
      browser: outcome.browser,
      durationMs: outcome.durationMs,
    };
    const textOut = [...head, '', body].join('\n');
    return notes.length > 0 ? { outcome: 'ok', text: textOut, marker: notes.join('\n'), details } : { outcome: 'ok', text: textOut, details };
  },
});
