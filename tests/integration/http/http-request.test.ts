import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { serve, type TestServer } from '../../helpers/http-test-server';

/** http.request through the real gate, against real servers on 127.0.0.1 (SPEC §9, issue #4). */
const open = useTestGate();
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(handler: Parameters<typeof serve>[0]): Promise<TestServer> {
  const s = await serve(handler);
  servers.push(s);
  return s;
}

const policyAllowing = (prefix: string) => ({ version: 1, http: { allow: [prefix] } });

describe('http.request', () => {
  it('fetches an allowed page after approval and decodes EUC-KR (똠 is a UHC-only syllable)', async () => {
    const intranet = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=euc-kr' });
      res.end(iconv.encode('<p>사내 공지: 똠방각하</p>', 'cp949'));
    });
    const g = await open({ policy: policyAllowing(`${intranet.origin}/wiki/`), lang: 'ko' });
    const r = await g.call('http.request', { url: `${intranet.origin}/wiki/notice` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toMatch(/^HTTP 200 OK · text\/html · /);
    expect(r.text).toContain('사내 공지: 똠방각하');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]?.risk).toBe('network');
    expect(g.approvals[0]?.destination).toBe(`GET ${intranet.origin}/wiki/notice`);
    expect(intranet.requests.map((q) => q.path)).toEqual(['/wiki/notice']);
  });

  it('refuses a non-allowed address before anyone is asked, and nothing reaches it', async () => {
    const outside = await server((_req, res) => res.end('secret'));
    const g = await open({ policy: policyAllowing('http://127.0.0.1:1/wiki/') });
    const r = await g.call('http.request', { url: `${outside.origin}/wiki/x` });
    expect(r.outcome).toBe('refused');
    expect(g.approvals).toHaveLength(0);
    expect(outside.requests).toHaveLength(0);
  });

  it('refuses a redirect from an allowed page to a non-allowed one, which receives nothing', async () => {
    const outside = await server((_req, res) => res.end('exfiltrated'));
    const intranet = await server((_req, res) => {
      res.writeHead(302, { location: `${outside.origin}/collect?d=1` });
      res.end();
    });
    const g = await open({ policy: policyAllowing(`${intranet.origin}/wiki/`), lang: 'en' });
    const r = await g.call('http.request', { url: `${intranet.origin}/wiki/go` });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain(outside.origin);
    expect(outside.requests).toHaveLength(0);
  });

  it('shows a 404 with its body and puts the status marker after the cut', async () => {
    const intranet = await server((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('x'.repeat(40_000));
    });
    const g = await open({ policy: policyAllowing(`${intranet.origin}/`), lang: 'en' });
    const r = await g.call('http.request', { url: `${intranet.origin}/missing` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toMatch(/\[output truncated: showing the first 30000 of \d+ characters[^\n]*\]\n\[HTTP status: 404\]$/);
  });

  it('summarises a binary response instead of dumping it', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const intranet = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    const g = await open({ policy: policyAllowing(`${intranet.origin}/`), lang: 'en' });
    const r = await g.call('http.request', { url: `${intranet.origin}/logo.png` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toMatch(/Content: not text \(png\), \d+ B, SHA-256 [0-9a-f]{64}\. Not shown\./);
  });
});
