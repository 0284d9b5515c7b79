import { Type } from '@sinclair/typebox';
import { HTTP_METHODS, type HttpMethod, type HttpRequestSpec, type HttpResponse } from '../../electron/common/http-capability';
import { pick, text, type Lang } from '../../electron/common/i18n';
import { defineTool, failure } from '../kit/define-tool';
import { fail } from '../kit/results';
import { humanSize } from '../kit/sizes';

const input = Type.Object(
  {
    url: Type.String({ description: 'Absolute http(s) URL under one of the allowed prefixes.' }),
    method: Type.Optional(Type.Union(HTTP_METHODS.map((m) => Type.Literal(m)), { description: 'Default GET.' })),
    // A map, so any name fits its pattern; additionalProperties: false keeps the registry's rule that
    // no object schema lets unknown fields through silently.
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Extra request headers.', additionalProperties: false })),
    body: Type.Optional(Type.String({ description: 'Request body (UTF-8); not with GET or HEAD.' })),
  },
  { additionalProperties: false },
);

function specOf(args: { url: string; method?: HttpMethod; headers?: Record<string, string>; body?: string }): HttpRequestSpec {
  return { url: args.url, method: args.method ?? 'GET', ...(args.headers ? { headers: args.headers } : {}), ...(args.body !== undefined ? { body: args.body } : {}) };
}

function render(response: HttpResponse, lang: Lang): { body: string; marker?: string } {
  const line = (ko: string, en: string) => pick(text(ko, en), lang);
  const head = [`HTTP ${response.status} ${response.statusText}`.trim()];
  if (response.contentType) head.push(response.contentType);
  head.push(humanSize(response.receivedBytes));
  const lines = [head.join(' · ')];
  for (const r of response.redirects) lines.push(line(`(넘겨짐 ${r.status}: ${r.from} → ${r.to})`, `(redirected ${r.status}: ${r.from} → ${r.to})`));
  if (response.body.kind === 'binary') {
    const b = response.body;
    lines.push(
      line(
        `내용: 텍스트가 아닌 파일(${b.detected}), ${humanSize(b.bytes)}, SHA-256 ${b.sha256}. 내용은 보여 주지 않습니다.`,
        `Content: not text (${b.detected}), ${humanSize(b.bytes)}, SHA-256 ${b.sha256}. Not shown.`,
      ),
    );
  } else {
    lines.push('', response.body.text);
  }
  const notes: string[] = [];
  if (response.truncated) {
    const total = response.totalBytes !== null ? humanSize(response.totalBytes) : line('알 수 없음', 'unknown');
    notes.push(line(`[응답이 커서 앞부분 ${humanSize(response.receivedBytes)}만 받음; 전체 ${total}]`, `[response cut at ${humanSize(response.receivedBytes)} of ${total}]`));
  }
  if (response.status >= 400) notes.push(`[HTTP status: ${response.status}]`);
  return notes.length > 0 ? { body: lines.join('\n'), marker: notes.join('\n') } : { body: lines.join('\n') };
}

export const httpRequest = defineTool({
  name: 'http.request',
  description: {
    ko: '허용된 주소(사내 웹, API)에 HTTP 요청을 보내고 응답을 봅니다. 허용 목록 밖의 주소나 그쪽으로의 넘겨주기(redirect)는 막힙니다.',
    en: 'Send an HTTP request to an allowed address (intranet pages, APIs) and show the response. Addresses outside the allowlist, and redirects to them, are refused.',
  },
  keywords: ['웹', '인터넷', '주소', 'API', '요청', '다운로드', 'http', 'https', 'url', 'web', 'fetch', 'curl', 'request'],
  input,
  risk: 'network',
  subject: { kind: 'URL', fields: ['url'] },
  concurrency: 'parallel-safe',
  capabilities: ['http'],

  precheck(args, ctx) {
    const refused = ctx.http.check(specOf(args));
    return refused ? failure(refused.message) : null;
  },

  /** The approval shows where the request goes; the http capability reaches only that URL. */
  plan: async (args) => ({ targets: [], destination: `${args.method ?? 'GET'} ${args.url}`, network: { kind: 'url', url: args.url } }),

  summarize: (args) => text(`${args.url} 에 ${args.method ?? 'GET'} 요청을 보냅니다`, `Sends a ${args.method ?? 'GET'} request to ${args.url}`),

  async execute(args, ctx) {
    const outcome = await ctx.http.request({ ...specOf(args), signal: ctx.signal });
    switch (outcome.outcome) {
      case 'refused':
        return fail(ctx.lang, outcome.message, { url: outcome.url, stage: outcome.stage, reason: outcome.reason }, 'refused');
      case 'failed':
        return fail(
          ctx.lang,
          outcome.message,
          { url: outcome.url, reason: outcome.reason, code: outcome.code, durationMs: outcome.durationMs },
          outcome.reason === 'timeout' ? 'timeout' : outcome.reason === 'aborted' ? 'cancelled' : 'error',
        );
      case 'response': {
        const { body, marker } = render(outcome, ctx.lang);
        const details = {
          status: outcome.status,
          url: outcome.url,
          remoteAddress: outcome.remoteAddress,
          redirects: outcome.redirects.length,
          receivedBytes: outcome.receivedBytes,
          truncated: outcome.truncated,
          ...(outcome.body.kind === 'binary' ? { sha256: outcome.body.sha256, detected: outcome.body.detected } : { charset: outcome.body.charset }),
        };
        return marker !== undefined ? { outcome: 'ok', text: body, marker, details } : { outcome: 'ok', text: body, details };
      }
    }
  },
});
