import { Type } from '@sinclair/typebox';
import { isFileAccessError } from '../../electron/common/file-access';
import { pick, text } from '../../electron/common/i18n';
import { blockedNote, browserFailure } from '../kit/browser-results';
import { defineTool, failure, isFailure, type Failure } from '../kit/define-tool';
import { fileErrorText } from '../kit/file-errors';
import { fail } from '../kit/results';
import { humanSize } from '../kit/sizes';
import { precheckWholeWrite, wholeWritePlan, withFolderNote, writeDestination } from '../kit/text-file';

const input = Type.Object(
  {
    url: Type.String({ description: 'Page address (http/https), under an allowed prefix.' }),
    path: Type.String({ description: 'PNG file to save, in the workspace.' }),
    fullPage: Type.Optional(Type.Boolean({ description: 'Whole page, not only the first screen.' })),
    overwrite: Type.Optional(Type.Boolean({ description: 'Replace an existing file (default false).' })),
  },
  { additionalProperties: false },
);

/** Screenshots are PNG; a name that says otherwise (or a script's name) is refused before anything runs. */
function pngOnly(path: string): Failure | null {
  return /\.png$/i.test(path.trim())
    ? null
    : failure(text(`'${path}': 화면은 PNG로 저장합니다. 이름을 .png로 끝나게 주세요(예: '캡처.png').`, `'${path}': screenshots are saved as PNG. Give a name ending in .png (e.g. 'capture.png').`));
}

export const browserScreenshot = defineTool({
  name: 'browser.screenshot',
  description: {
    ko: '허용된 사내 웹 페이지의 화면을 PNG 파일로 작업 공간에 저장합니다.',
    en: 'Save a PNG screenshot of an allowed intranet page into the workspace.',
  },
  keywords: ['캡처', '화면 캡처', '스크린샷', '화면 저장', '페이지 캡처', '웹페이지', '인트라넷', '그룹웨어', 'screenshot', 'capture', 'screen capture', 'web page', 'browser', 'png'],
  input,
  risk: 'network',
  subject: { kind: 'URL', fields: ['url'] },
  concurrency: 'exclusive',
  capabilities: ['browser', 'files'],

  async precheck(args, ctx) {
    const refused = ctx.browser.check(args.url);
    if (refused) return failure(refused.message);
    return precheckWholeWrite(args, ctx, pngOnly);
  },

  /** The page to open, and the file (with a missing folder first) the PNG goes to, as filesystem.write plans it. */
  async plan(args, ctx) {
    const refused = ctx.browser.check(args.url);
    if (refused) return failure(refused.message);
    const destination = await writeDestination(args, ctx, () => pngOnly(args.path));
    if (isFailure(destination)) return destination;
    const preview = withFolderNote(`PNG ← ${args.url}`, destination, ctx);
    return { ...wholeWritePlan(destination, preview), destination: args.url, network: { kind: 'url', url: args.url } };
  },

  summarize: (args) =>
    text(
      `브라우저로 ${args.url} 페이지를 열어 ${args.fullPage ? '페이지 전체' : '첫 화면'}를 '${args.path}'에 저장합니다`,
      `Opens ${args.url} in a browser and saves ${args.fullPage ? 'the whole page' : 'the first screen'} to '${args.path}'`,
    ),

  async execute(args, ctx) {
    // Exactly the planned file (the file capability refuses any other, and one that changed since).
    const targets = ctx.plan.targets;
    const local = targets[targets.length - 1]?.path;
    if (local === undefined) return fail(ctx.lang, text('저장할 위치가 계획에 없습니다.', 'The plan names no file to save to.'), undefined, 'refused');
    const outcome = await ctx.browser.screenshot({ url: args.url, signal: ctx.signal, fullPage: args.fullPage === true });
    if (outcome.outcome !== 'screenshot') return browserFailure(ctx.lang, outcome);
    try {
      // The approved missing folder first (the plan lists it before the file).
      for (const folder of targets.slice(0, -1)) await ctx.files.mkdir(folder.path);
      await ctx.files.writeAtomic(local, outcome.png, { overwrite: args.overwrite === true });
    } catch (e) {
      if (isFileAccessError(e)) return fail(ctx.lang, fileErrorText(e), { code: e.code });
      throw e;
    }
    const line = (ko: string, en: string) => pick(text(ko, en), ctx.lang);
    const notes: string[] = [];
    if (outcome.clipped) notes.push(line(`[페이지가 커서 왼쪽 위 ${outcome.width}×${outcome.height}px만 담았습니다]`, `[the page is larger; the image holds its top-left ${outcome.width}×${outcome.height} px]`));
    if (outcome.partial) notes.push(line('[페이지가 제한 시간 안에 다 열리지 않아 그때까지 나온 화면입니다]', '[the page had not finished loading in time; this is what had rendered]'));
    if (outcome.status >= 400) notes.push(line(`[HTTP 상태: ${outcome.status}]`, `[HTTP status: ${outcome.status}]`));
    const blocked = blockedNote(outcome.blocked, outcome.popupsClosed);
    if (blocked) notes.push(pick(blocked, ctx.lang));
    const saved = line(
      `'${args.path}'에 저장했습니다 (${outcome.width}×${outcome.height}, ${humanSize(outcome.png.byteLength)}): ${outcome.title || '(제목 없음)'} — ${outcome.url}`,
      `Saved '${args.path}' (${outcome.width}×${outcome.height}, ${humanSize(outcome.png.byteLength)}): ${outcome.title || '(no title)'} — ${outcome.url}`,
    );
    const details = {
      url: outcome.url,
      status: outcome.status,
      path: local,
      bytes: outcome.png.byteLength,
      width: outcome.width,
      height: outcome.height,
      clipped: outcome.clipped,
      partial: outcome.partial,
      blocked: outcome.blocked.count,
      blockedOrigins: outcome.blocked.origins,
      overLimit: outcome.blocked.overLimit,
      popupsClosed: outcome.popupsClosed,
      browser: outcome.browser,
      durationMs: outcome.durationMs,
    };
    return notes.length > 0 ? { outcome: 'ok', text: saved, marker: notes.join('\n'), details } : { outcome: 'ok', text: saved, details };
  },
});
