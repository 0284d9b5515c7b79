import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpBody, HttpOutcome, HttpRequestSpec, HttpResponse } from '../../../electron/common/http-capability';
import { createHttpClient, type HttpClientOptions } from '../../../electron/main/host/http';
import { freePort, serve, type TestServer } from '../../helpers/http-test-server';

/** '똠' is one of the 8,822 UHC-only syllables: plain EUC-KR decoders get it wrong. */
const KOREAN = '한글 페이지 똠방각하';
const cp949 = (s: string) => iconv.encode(s, 'cp949');
const MiB = 1024 * 1024;

/** A stored (uncompressed) ZIP local entry: enough structure for a real unzip to list it. */
function zipEntry(name: string, data: Buffer): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(zlib.crc32(data), 14);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  return Buffer.concat([header, Buffer.from(name), data]);
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
/** 64 MiB of zeros in ~64 KiB, compressed once on first use. */
let gzipBomb: Buffer | undefined;
const XLSX = Buffer.concat([zipEntry('[Content_Types].xml', Buffer.from('<Types/>')), zipEntry('xl/workbook.xml', Buffer.from('<workbook/>'))]);

/** Writes `total` bytes in 64 KiB chunks, respecting backpressure; reports how it ended. */
function stream(res: ServerResponse, total: number, onEnd: (info: { written: number; finished: boolean }) => void) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let written = 0;
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(total) });
  const pump = () => {
    while (written < total) {
      const n = Math.min(chunk.length, total - written);
      written += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => onEnd({ written, finished: res.writableFinished }));
  pump();
}

let server: TestServer;
let second: TestServer; // another allowed origin (127.0.0.2), for cross-origin redirects
let bigEnd: Promise<{ written: number; finished: boolean }>;
let resolveBigEnd: (info: { written: number; finished: boolean }) => void;
let stalledClosed: Promise<void>;
let resolveStalledClosed: () => void;

beforeAll(async () => {
  second = await serve((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ headers: req.headers })), { host: '127.0.0.2' });
  bigEnd = new Promise((r) => (resolveBigEnd = r));
  stalledClosed = new Promise((r) => (resolveStalledClosed = r));
  server = await serve((req, res) => {
    const [p = ''] = req.path.split('?');
    switch (p) {
      case '/wiki/euckr-header':
        return res.writeHead(200, { 'content-type': 'text/html; charset=EUC-KR' }).end(cp949(`<html><body>${KOREAN}</body></html>`));
      case '/wiki/euckr-ksc':
        return res.writeHead(200, { 'content-type': 'text/plain;charset="ks_c_5601-1987"' }).end(cp949(KOREAN));
      case '/wiki/euckr-meta':
        return res.writeHead(200, { 'content-type': 'text/html' }).end(cp949(`<html><head><meta charset="euc-kr"><title>t</title></head><body>${KOREAN}</body></html>`));
      case '/wiki/euckr-http-equiv':
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(cp949(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=ks_c_5601-1987"></head><body>${KOREAN}</body></html>`));
      case '/wiki/euckr-none':
        // No Content-Type at all, no declaration: detection must pick CP949.
        return res.end(cp949(KOREAN));
      case '/wiki/utf8-none':
        return res.end(Buffer.from(KOREAN, 'utf8'));
      case '/wiki/utf8-bom':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(KOREAN, 'utf8')]));
      case '/wiki/utf8-bom-mislabelled':
        return res.writeHead(200, { 'content-type': 'text/plain; charset=euc-kr' }).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(KOREAN, 'utf8')]));
      case '/wiki/utf16':
        return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-16le' }).end(Buffer.from(KOREAN, 'utf16le'));
      case '/wiki/big':
        return stream(res, 20 * MiB, resolveBigEnd);
      case '/wiki/silent':
        // Reads the request, never answers.
        res.on('close', () => resolveStalledClosed());
        return;
      case '/wiki/drip': {
        // Headers at once, then one byte every 50 ms: only a cap on the total time stops it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/wiki/png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      case '/wiki/pdf-as-text':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(PDF);
      case '/wiki/xlsx':
        return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(XLSX);
      case '/wiki/nul':
        return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([1, 2, 0, 3, 4, 0, 0, 9]));
      case '/wiki/csv-octet':
        return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(cp949('이름,부서\n홍길동,총무\n'));
      case '/wiki/echo':
        return res
          .writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'session=abc', 'x-internal': 'hidden' })
          .end(JSON.stringify({ method: req.method, body: req.body.toString('utf8'), headers: req.headers }));
      case '/wiki/307':
        return res.writeHead(307, { location: '/wiki/echo' }).end('redirect body that is never read');
      case '/wiki/308':
        return res.writeHead(308, { location: '/wiki/echo' }).end();
      case '/wiki/303':
        return res.writeHead(303, { location: '/wiki/echo' }).end();
      case '/wiki/302':
        return res.writeHead(302, { location: '/wiki/echo' }).end();
      case '/wiki/cross':
        return res.writeHead(302, { location: `${second.origin}/api/echo` }).end();
      case '/wiki/same':
        return res.writeHead(302, { location: '/wiki/echo' }).end();
      case '/wiki/gzip':
        return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.from(KOREAN, 'utf8')));
      case '/wiki/gzip-bomb':
        gzipBomb ??= zlib.gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
        return res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipBomb);
      case '/wiki/bad-gzip':
        return res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end('this is not gzip at all');
      case '/wiki/huge-headers':
        return res.writeHead(200, { 'x-filler': 'x'.repeat(20 * 1024) }).end('never seen');
      case '/wiki/short':
        // Declares 1000 bytes, sends 10, then drops the connection.
        res.writeHead(200, { 'content-length': '1000' });
        res.write('0123456789');
        return void setTimeout(() => res.socket?.destroy(), 20);
      case '/wiki/not-found':
        return res.writeHead(404, 'Not Found', { 'content-type': 'text/plain; charset=utf-8' }).end('없는 문서');
      default:
        return res.writeHead(500).end();
    }
  });
});

afterAll(async () => {
  await Promise.all([server?.close(), second?.close()]);
});

function client(options: Partial<HttpClientOptions> = {}) {
  return createHttpClient({ allow: [`${server.origin}/wiki/`, `${second.origin}/api/`], timeoutMs: 5000, ...options });
}

async function request(path: string, extra: Partial<HttpRequestSpec> & { signal?: AbortSignal } = {}, options: Partial<HttpClientOptions> = {}): Promise<HttpOutcome> {
  return client(options).request({ url: `${server.origin}${path}`, method: 'GET', signal: new AbortController().signal, ...extra });
}

function expectResponse(outcome: HttpOutcome): HttpResponse {
  if (outcome.outcome !== 'response') throw new Error(`expected a response, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function textOf(body: HttpBody): string {
  if (body.kind !== 'text') throw new Error(`expected text, got ${JSON.stringify(body)}`);
  return body.text;
}

describe('text decoding', () => {
  it('the UHC syllable really is outside plain EUC-KR (the fixture tests what it claims)', () => {
    expect(new TextDecoder('euc-kr').decode(cp949('똠'))).not.toBe('똠');
  });

  it('EUC-KR by the Content-Type charset (also as ks_c_5601-1987, quoted)', async () => {
    const r = expectResponse(await request('/wiki/euckr-header'));
    expect(textOf(r.body)).toBe(`<html><body>${KOREAN}</body></html>`);
    expect(r.body).toMatchObject({ charset: 'cp949', charsetSource: 'header' });
    expect(r.contentType).toBe('text/html');
    const ksc = expectResponse(await request('/wiki/euckr-ksc'));
    expect([textOf(ksc.body), ksc.body.kind === 'text' && ksc.body.charsetSource]).toEqual([KOREAN, 'header']);
  });

  it('EUC-KR by <meta charset> and by <meta http-equiv> only', async () => {
    for (const p of ['/wiki/euckr-meta', '/wiki/euckr-http-equiv']) {
      const r = expectResponse(await request(p));
      expect(textOf(r.body), p).toContain(`<body>${KOREAN}</body>`);
      expect(r.body, p).toMatchObject({ charset: 'cp949', charsetSource: 'meta' });
    }
  });

  it('no charset anywhere: CP949 when not valid UTF-8, UTF-8 when it is', async () => {
    const legacy = expectResponse(await request('/wiki/euckr-none'));
    expect(legacy.contentType).toBeNull();
    expect([textOf(legacy.body), legacy.body]).toEqual([KOREAN, expect.objectContaining({ charset: 'cp949', charsetSource: 'detected' })]);
    const modern = expectResponse(await request('/wiki/utf8-none'));
    expect([textOf(modern.body), modern.body]).toEqual([KOREAN, expect.objectContaining({ charset: 'utf-8', charsetSource: 'detected' })]);
  });

  it('UTF-8 with a BOM: the BOM decides (even against a wrong header) and is not part of the text', async () => {
    for (const p of ['/wiki/utf8-bom', '/wiki/utf8-bom-mislabelled']) {
      const r = expectResponse(await request(p));
      expect(textOf(r.body), p).toBe(KOREAN);
      expect(r.body, p).toMatchObject({ charset: 'utf-8', charsetSource: 'bom' });
    }
  });

  it('UTF-16 declared in the header is text despite its NUL bytes', async () => {
    const r = expectResponse(await request('/wiki/utf16'));
    expect([textOf(r.body), r.body.kind === 'text' && r.body.charset]).toEqual([KOREAN, 'utf-16le']);
  });

  it('CP949 CSV served as application/octet-stream is read as text', async () => {
    expect(textOf(expectResponse(await request('/wiki/csv-octet')).body)).toBe('이름,부서\n홍길동,총무\n');
  });

  it('gzip is undone; a gzip bomb stops at the size cap; corrupt gzip is a protocol failure', async () => {
    const r = expectResponse(await request('/wiki/gzip', { headers: { 'Accept-Encoding': 'gzip' } }));
    expect(textOf(r.body)).toBe(KOREAN);
    const bomb = expectResponse(await request('/wiki/gzip-bomb', {}, { maxResponseBytes: MiB }));
    expect([bomb.truncated, bomb.receivedBytes, bomb.totalBytes]).toEqual([true, MiB, null]);
    const bad = await request('/wiki/bad-gzip');
    expect(bad.outcome === 'failed' && [bad.reason, bad.message.en]).toEqual(['protocol', expect.stringContaining('gzip')]);
  });
});

describe('caps', () => {
  it('a 20 MB response is cut at 1 MiB: truncated, memory stays flat, the connection is closed', async () => {
    const rssBefore = process.memoryUsage().rss;
    const r = expectResponse(await request('/wiki/big', {}, { maxResponseBytes: MiB }));
    expect([r.truncated, r.receivedBytes, r.totalBytes]).toEqual([true, MiB, 20 * MiB]);
    expect(textOf(r.body)).toHaveLength(MiB);
    const end = await bigEnd;
    expect(end.finished).toBe(false); // the server's response was cut off, not completed
    expect(end.written).toBeLessThan(20 * MiB);
    // Buffering the whole body (and its decoded copy) would add ~40 MB.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(32 * MiB);
  });

  it('a server that never answers: timed out within the bound, connection closed', async () => {
    const r = await request('/wiki/silent', {}, { timeoutMs: 400 });
    if (r.outcome !== 'failed') throw new Error(JSON.stringify(r));
    expect(r.reason).toBe('timeout');
    expect(r.durationMs).toBeGreaterThanOrEqual(390);
    // No upper bound on the wall time (CI is a loaded 2-core machine): 'timeout' is the proof.
    expect(r.message.ko).toContain('0.4초');
    await stalledClosed;
  });

  it('a body that drips forever: the total time cap covers the body too', async () => {
    const r = await request('/wiki/drip', {}, { timeoutMs: 400 });
    expect(r.outcome === 'failed' && r.reason).toBe('timeout');
  });

  it('aborting the signal stops the request at once', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const r = await request('/wiki/drip', { signal: controller.signal }, { timeoutMs: 10_000 });
    expect(r.outcome === 'failed' && [r.reason, r.message.en]).toEqual(['aborted', 'The request was cancelled.']);
    expect(Date.now() - started).toBeLessThan(1000);
    const before = server.connections();
    const pre = new AbortController();
    pre.abort();
    const none = await request('/wiki/echo', { signal: pre.signal });
    expect(none.outcome === 'failed' && none.reason).toBe('aborted');
    expect(server.connections()).toBe(before);
  });

  it('response headers beyond the cap fail as too-large', async () => {
    const r = await request('/wiki/huge-headers');
    expect(r.outcome === 'failed' && [r.reason, r.code]).toEqual(['too-large', 'HPE_HEADER_OVERFLOW']);
  });

  it('a request body beyond its cap is refused before sending', async () => {
    const before = server.connections();
    const r = await request('/wiki/echo', { method: 'POST', body: 'x'.repeat(2000) }, { maxRequestBodyBytes: 1000 });
    expect(r.outcome === 'refused' && r.reason).toBe('body');
    expect(server.connections()).toBe(before);
  });
});

describe('binary bodies are summarised, never dumped', () => {
  it('PNG: size, SHA-256 and kind', async () => {
    const r = expectResponse(await request('/wiki/png'));
    expect(r.body).toEqual({ kind: 'binary', bytes: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex'), detected: 'png' });
  });

  it('a PDF mislabelled as text/plain is still a PDF', async () => {
    const r = expectResponse(await request('/wiki/pdf-as-text'));
    expect(r.body).toMatchObject({ kind: 'binary', detected: 'pdf', sha256: createHash('sha256').update(PDF).digest('hex') });
  });

  it('an XLSX sent as application/octet-stream is recognised; NUL bytes make unknown binary', async () => {
    expect(expectResponse(await request('/wiki/xlsx')).body).toMatchObject({ kind: 'binary', detected: 'xlsx', bytes: XLSX.length });
    expect(expectResponse(await request('/wiki/nul')).body).toMatchObject({ kind: 'binary', detected: 'unknown', bytes: 8 });
  });
});

describe('methods, bodies and redirects', () => {
  type Echo = { method: string; body: string; headers: Record<string, string | undefined> };
  const echo = (r: HttpResponse) => JSON.parse(textOf(r.body)) as Echo;

  it('POST sends the body and method; the response shows a header subset without Set-Cookie', async () => {
    const r = expectResponse(await request('/wiki/echo', { method: 'POST', body: '{"제목":"회의록"}', headers: { 'Content-Type': 'application/json' } }));
    expect([r.status, r.remoteAddress]).toEqual([201, '127.0.0.1']);
    expect(echo(r)).toMatchObject({ method: 'POST', body: '{"제목":"회의록"}', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength('{"제목":"회의록"}')) } });
    expect(r.headers).toHaveProperty('content-type', 'application/json');
    expect(r.headers).not.toHaveProperty('set-cookie');
    expect(r.headers).not.toHaveProperty('x-internal');
  });

  it('PUT, PATCH, DELETE and HEAD go out as themselves; a body-less POST sends Content-Length 0', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const r = expectResponse(await request('/wiki/echo', { method, ...(method === 'DELETE' ? {} : { body: 'b' }) }));
      expect(echo(r).method).toBe(method);
    }
    expect(echo(expectResponse(await request('/wiki/echo', { method: 'POST' }))).headers['content-length']).toBe('0');
    const head = expectResponse(await request('/wiki/echo', { method: 'HEAD' }));
    expect([head.status, textOf(head.body), head.receivedBytes]).toEqual([201, '', 0]);
  });

  it('a body with GET is refused with a signpost to POST; an empty body is no body', async () => {
    const r = await request('/wiki/echo', { body: 'q' });
    expect(r.outcome === 'refused' && [r.reason, r.message.en]).toEqual(['body', expect.stringContaining('POST')]);
    expect(echo(expectResponse(await request('/wiki/echo', { body: '' }))).method).toBe('GET');
  });

  it('307 and 308 keep the method and the body', async () => {
    for (const p of ['/wiki/307', '/wiki/308']) {
      const r = expectResponse(await request(p, { method: 'POST', body: '본문', headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
      expect(echo(r), p).toMatchObject({ method: 'POST', body: '본문' });
      expect(r.redirects.map((x) => x.method), p).toEqual(['POST']);
    }
  });

  it('303 turns into GET without the body or its headers; 302 turns POST into GET but keeps PUT', async () => {
    const r = expectResponse(await request('/wiki/303', { method: 'POST', body: '본문', headers: { 'Content-Type': 'text/plain' } }));
    const e = echo(r);
    expect([e.method, e.body, e.headers['content-type'], e.headers['content-length']]).toEqual(['GET', '', undefined, undefined]);
    expect(r.redirects).toEqual([{ status: 303, from: `${server.origin}/wiki/303`, to: `${server.origin}/wiki/echo`, method: 'GET' }]);
    expect(echo(expectResponse(await request('/wiki/302', { method: 'POST', body: 'x' }))).method).toBe('GET');
    expect(echo(expectResponse(await request('/wiki/302', { method: 'PUT', body: 'x' })))).toMatchObject({ method: 'PUT', body: 'x' });
  });

  it('a cross-origin redirect drops Authorization and Cookie; a same-origin one keeps them', async () => {
    const headers = { Authorization: 'Bearer t0ken', Cookie: 'sid=1', 'X-Trace': 'keep' };
    const cross = expectResponse(await request('/wiki/cross', { headers }));
    expect(cross.url).toBe(`${second.origin}/api/echo`);
    const seen = (JSON.parse(textOf(cross.body)) as { headers: Record<string, string> }).headers;
    expect(seen).not.toHaveProperty('authorization');
    expect(seen).not.toHaveProperty('cookie');
    expect(seen).toHaveProperty('x-trace', 'keep');
    const same = echo(expectResponse(await request('/wiki/same', { headers })));
    expect(same.headers).toMatchObject({ authorization: 'Bearer t0ken', cookie: 'sid=1' });
  });
});

describe('failures and statuses are values', () => {
  it('a 404 is a response', async () => {
    const r = expectResponse(await request('/wiki/not-found'));
    expect([r.status, r.statusText, textOf(r.body)]).toEqual([404, 'Not Found', '없는 문서']);
  });

  it('connection refused, unknown host, a response cut short', async () => {
    const port = await freePort();
    const refused = await createHttpClient({ allow: [`http://127.0.0.1:${port}/`] }).request({ url: `http://127.0.0.1:${port}/x`, method: 'GET', signal: new AbortController().signal });
    expect(refused.outcome === 'failed' && [refused.reason, refused.code]).toEqual(['connection', 'ECONNREFUSED']);
    const dns = await createHttpClient({ allow: ['http://baram-test.invalid/'] }).request({ url: 'http://baram-test.invalid/x', method: 'GET', signal: new AbortController().signal });
    expect(dns.outcome === 'failed' && dns.reason).toBe('dns');
    const short = await request('/wiki/short');
    expect(short.outcome === 'failed' && short.reason).toBe('connection');
  });
});
