import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real model server on 127.0.0.1 that replays scripted transcripts (DESIGN "Testing without the
 * Electron binary"). Each POST to the chat endpoint takes the next turn; every request body is
 * recorded, so a test can assert what reached the model (a denial reason, a tool result, the
 * `tools` block, `response_format`).
 *
 * Bytes go out in the pieces a turn names (`splitAt` byte offsets, or `chunkSize`), each written
 * and flushed before the next, so a split inside a UTF-8 character or a JSON string really reaches
 * the client's socket as two writes. Nothing here waits on a clock.
 */
export type Shape = 'openai' | 'ollama';

export interface ScriptedResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  /** Byte offsets at which the body is cut into separate writes. */
  readonly splitAt?: readonly number[];
  /** Or: write the body in pieces of this many bytes. */
  readonly chunkSize?: number;
  /**
   * `destroy`: drop the connection after the body instead of ending the response (truncation).
   * `hold`: keep the response open until the client goes away (for Stop tests).
   */
  readonly end?: 'end' | 'destroy' | 'hold';
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** The body parsed as JSON, or undefined. */
  readonly json: any;
}

export type Turn = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse);

export interface ScriptedServerOptions {
  readonly shape: Shape;
  readonly turns: readonly Turn[];
  /** Model id answered by `/v1/models` and `/api/tags`. */
  readonly model?: string;
  /** Extra routes by `METHOD /path` (e.g. `GET /props`), answered every time. */
  readonly routes?: Readonly<Record<string, Turn>>;
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** Every request received, in order (chat and other routes). */
  readonly requests: RecordedRequest[];
  /** Only the chat requests (one per turn), bodies parsed. */
  chatRequests(): RecordedRequest[];
  /** Turns not yet served. */
  remaining(): number;
  close(): Promise<void>;
}

const CHAT_PATHS: Record<Shape, readonly string[]> = {
  openai: ['/v1/chat/completions', '/chat/completions'],
  ollama: ['/api/chat'],
};

export async function startScriptedModelServer(options: ScriptedServerOptions): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const chat: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let next = 0;
  const model = options.model ?? 'scripted-model';

  const defaults: Record<string, Turn> =
    options.shape === 'openai'
      ? { 'GET /v1/models': json({ object: 'list', data: [{ id: model, object: 'model', owned_by: 'scripted' }] }) }
      : {
          'GET /api/tags': json({ models: [{ name: model, model }] }),
          'GET /api/version': json({ version: '0.13.0' }),
        };
  const routes = { ...defaults, ...options.routes };

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      let parsed: unknown;
      try {
        parsed = body ? JSON.parse(body) : undefined;
      } catch {
        parsed = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, json: parsed };
      requests.push(recorded);
      let turn: Turn | undefined;
      if (req.method === 'POST' && CHAT_PATHS[options.shape].includes(path)) {
        chat.push(recorded);
        turn = options.turns[next++] ?? json({ error: { message: 'scripted server: no turn left', type: 'server_error' } }, 500);
      } else {
        turn = routes[`${req.method} ${path}`] ?? json({ error: `not found: ${req.method} ${path}` }, 404);
      }
      void send(res, typeof turn === 'function' ? turn(recorded) : turn);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    chatRequests: () => chat,
    remaining: () => options.turns.length - next,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function send(res: http.ServerResponse, r: ScriptedResponse): Promise<void> {
  res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
  res.flushHeaders();
  const body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
  const cuts = r.splitAt ? [...r.splitAt] : r.chunkSize ? range(r.chunkSize, body.length, r.chunkSize) : [];
  let from = 0;
  for (const at of [...cuts.filter((c) => c > 0 && c < body.length).sort((a, b) => a - b), body.length]) {
    if (at <= from) continue;
    await new Promise<void>((resolve) => res.write(body.subarray(from, at), () => resolve()));
    from = at;
  }
  if (r.end === 'destroy') res.socket?.destroy();
  else if (r.end !== 'hold') res.end();
}

function range(start: number, end: number, step: number): number[] {
  const out: number[] = [];
  for (let i = start; i < end; i += step) out.push(i);
  return out;
}

// ── transcript builders ──────────────────────────────────────────────────────────────────────

/** A JSON response. */
export function json(value: unknown, status = 200): ScriptedResponse {
  return { status, body: JSON.stringify(value) };
}

/** Raw text body with a status (e.g. a bare-string error). */
export function raw(body: string, status = 200, contentType = 'text/plain'): ScriptedResponse {
  return { status, body, headers: { 'content-type': contentType } };
}

export interface SseOptions {
  /** Append `data: [DONE]` (default true). */
  readonly done?: boolean;
  readonly splitAt?: readonly number[];
  readonly chunkSize?: number;
  readonly end?: 'end' | 'destroy' | 'hold';
}

/**
 * An SSE body: objects become `data: {json}` events; strings are written verbatim (use them for
 * `: ping` comments, the old `error: {…}` field, or a frame cut in half).
 */
export function sseBody(frames: readonly (object | string)[], done = true): string {
  let out = '';
  for (const f of frames) out += typeof f === 'string' ? f : `data: ${JSON.stringify(f)}\n\n`;
  if (done) out += 'data: [DONE]\n\n';
  return out;
}

export function sse(frames: readonly (object | string)[], options: SseOptions = {}): ScriptedResponse {
  const r: { -readonly [K in keyof ScriptedResponse]: ScriptedResponse[K] } = {
    body: sseBody(frames, options.done ?? true),
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  };
  if (options.splitAt) r.splitAt = options.splitAt;
  if (options.chunkSize) r.chunkSize = options.chunkSize;
  if (options.end) r.end = options.end;
  return r;
}

/** An NDJSON body (Ollama native streaming). */
export function ndjson(lines: readonly (object | string)[], options: Omit<SseOptions, 'done'> = {}): ScriptedResponse {
  const r: { -readonly [K in keyof ScriptedResponse]: ScriptedResponse[K] } = {
    body: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)) + '\n').join(''),
    headers: { 'content-type': 'application/x-ndjson' },
  };
  if (options.splitAt) r.splitAt = options.splitAt;
  if (options.chunkSize) r.chunkSize = options.chunkSize;
  if (options.end) r.end = options.end;
  return r;
}

/** OpenAI stream chunk helpers. */
export const chunk = {
  role: (id = 'chatcmpl-1'): object => ({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: null } }] }),
  content: (content: string, id = 'chatcmpl-1'): object => ({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] }),
  reasoning: (text: string, field: 'reasoning_content' | 'reasoning' = 'reasoning_content'): object => ({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { [field]: text } }],
  }),
  toolCalls: (calls: readonly object[]): object => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: calls } }] }),
  finish: (reason: string | null, extra: object = {}): object => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: reason }], ...extra }),
  usage: (prompt: number, completion: number): object => ({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } }),
};

/** A whole assistant answer in text, streamed in one content chunk, ending with `stop`. */
export function textTurn(content: string, options: SseOptions = {}): ScriptedResponse {
  return sse([chunk.role(), chunk.content(content), chunk.finish('stop')], options);
}

/** Native tool calls the way llama-server streams them (name first, arguments in fragments). */
export function toolCallTurn(calls: readonly { id?: string; name: string; arguments: object }[], options: SseOptions & { fragment?: number } = {}): ScriptedResponse {
  const frames: object[] = [chunk.role()];
  calls.forEach((c, index) => {
    frames.push(chunk.toolCalls([{ index, ...(c.id ? { id: c.id } : {}), type: 'function', function: { name: c.name, arguments: '' } }]));
    const args = JSON.stringify(c.arguments);
    const step = options.fragment ?? 3;
    for (let i = 0; i < args.length; i += step) frames.push(chunk.toolCalls([{ index, function: { arguments: args.slice(i, i + step) } }]));
  });
  frames.push(chunk.finish('tool_calls'));
  return sse(frames, options);
}

/** The same calls as Hermes/Qwen text in the content (a server without template parsing). */
export function hermesTurn(calls: readonly { name: string; arguments: object }[], prose = '', options: SseOptions = {}): ScriptedResponse {
  const blocks = calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.arguments })}\n</tool_call>`).join('\n');
  return textTurn(prose ? `${prose}\n${blocks}` : blocks, options);
}

/** Ollama native: whole calls in one line, then the final line (`done_reason` stays "stop"). */
export function ollamaCallTurn(calls: readonly { id?: string; name: string; arguments: object }[], promptEvalCount = 100): ScriptedResponse {
  return ndjson([
    { model: 'scripted', message: { role: 'assistant', content: '', tool_calls: calls.map((c, index) => ({ ...(c.id ? { id: c.id } : {}), function: { index, name: c.name, arguments: c.arguments } })) }, done: false },
    { model: 'scripted', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: promptEvalCount, eval_count: 10 },
  ]);
}

/** Ollama native: a text answer. */
export function ollamaTextTurn(content: string, promptEvalCount = 100): ScriptedResponse {
  return ndjson([
    { model: 'scripted', message: { role: 'assistant', content }, done: false },
    { model: 'scripted', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: promptEvalCount, eval_count: 10 },
  ]);
}
