/**
 * Byte stream → lines → SSE events. Bytes are decoded with one streaming TextDecoder, so a UTF-8
 * character split across network chunks (Korean is 3 bytes) is never turned into U+FFFD.
 */

export async function* lines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c === 10 || c === 13) {
        // A '\r' at the very end may be the first half of '\r\n': wait for the next chunk.
        if (c === 13 && i === buffer.length - 1) break;
        yield buffer.slice(start, i);
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
  if (buffer.length > 0) yield buffer;
}

export type SseEvent =
  /** `data:` lines of one event, joined by '\n'. `event` is the `event:` field, if any. */
  | { readonly kind: 'data'; readonly data: string; readonly event?: string }
  /** The non-standard `error:` field of llama.cpp builds before PR #16109. */
  | { readonly kind: 'error'; readonly data: string };

export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  let data: string[] = [];
  let event: string | undefined;
  let error: string[] = [];
  const flush = function* (): Generator<SseEvent> {
    if (error.length > 0) yield { kind: 'error', data: error.join('\n') };
    if (data.length > 0) yield event === undefined ? { kind: 'data', data: data.join('\n') } : { kind: 'data', data: data.join('\n'), event };
    data = [];
    error = [];
    event = undefined;
  };
  for await (const line of lines(body)) {
    if (line === '') {
      yield* flush();
      continue;
    }
    if (line.startsWith(':')) continue; // keep-alive comment (`: ping`)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'error') error.push(value);
    else if (field === 'event') event = value;
    // id:, retry: and unknown fields are ignored (SSE spec).
  }
  yield* flush();
}

/** fetch's body as an async iterable (Node's web ReadableStream is one, typed loosely). */
export function bodyChunks(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  return body as unknown as AsyncIterable<Uint8Array>;
}
