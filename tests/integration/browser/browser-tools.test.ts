import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT_MS, CHROMIUM, chromiumAvailable } from '../../helpers/chromium';
import { useTestGate } from '../../helpers/gate-harness';
import { serve, type TestServer } from '../../helpers/http-test-server';

/**
 * browser.open and browser.screenshot through the real gate, driving the real Chromium headless
 * against real servers on 127.0.0.1 (SPEC §5 browser). No timing assertions.
 */
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

const policyFor = (prefix: string) => ({ http: { allow: [prefix] }, browser: { executablePath: CHROMIUM } });

/** A notice board whose content exists only after its script has fetched and rendered it. */
function intranet(): Promise<TestServer> {
  return server((req, res) => {
    if (req.path === '/intra/api/notices.json') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify([{ title: '사내 공지: 똠방각하 워크숍', date: '2026-12-03' }, { title: '보안 점검 일정', date: '2026-12-10' }]));
      return;
    }
    if (req.path === '/intra/notice') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>인트라넷 공지사항</title><style>.hidden{display:none}</style></head>
<body><h1>공지사항</h1><p class="hidden">숨은 글</p><div id="app">불러오는 중…</div>
<script>
fetch('/intra/api/notices.json').then((r) => r.json()).then((rows) => {
  const app = document.getElementById('app');
  app.innerHTML = '<h2>이번 주</h2><table><tr><th>제목</th><th>날짜</th></tr>' +
    rows.map((r) => '<tr><td>' + r.title + '</td><td>' + r.date + '</td></tr>').join('') +
    '</table><p>자세한 내용은 <a href="/intra/board">게시판 바로가기</a>를 보세요.</p>';
});
</script></body></html>`);
      return;
    }
    if (req.path === '/intra/long') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>긴 페이지</title></head><body style="margin:0"><div style="height:2400px;background:#39c">위</div></body></html>');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('없음');
  });
}

function pngFacts(bytes: Buffer): { signature: boolean; width: number; height: number } {
  return {
    signature: bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && bytes.subarray(12, 16).toString('latin1') === 'IHDR',
    width: bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(20),
  };
}

describe.skipIf(!chromiumAvailable())('browser tools (real Chromium)', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  it('browser.open returns the text a script rendered: headings, table rows, link texts; hidden text left out', async () => {
    const site = await intranet();
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'ko' });
    const url = `${site.origin}/intra/notice`;
    const r = await g.call('browser.open', { url });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('# 인트라넷 공지사항');
    expect(r.text).toContain(url);
    expect(r.text).toContain('# 공지사항');
    expect(r.text).toContain('## 이번 주');
    expect(r.text).toContain('제목 | 날짜');
    expect(r.text).toContain('사내 공지: 똠방각하 워크숍 | 2026-12-03');
    expect(r.text).toContain('게시판 바로가기');
    expect(r.text).not.toContain('숨은 글');
    expect(r.text).not.toContain('불러오는 중');
    // The page's own fetch went through the host to the same server.
    expect(site.requests.map((q) => q.path)).toEqual(['/intra/notice', '/intra/api/notices.json']);
  });

  it('the approval names the URL, as a network risk, before anything is fetched', async () => {
    const site = await intranet();
    let requestsWhenAsked = -1;
    const g = await open({
      policy: policyFor(`${site.origin}/intra/`),
      lang: 'en',
      approve: () => {
        requestsWhenAsked = site.requests.length;
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const url = `${site.origin}/intra/notice`;
    const r = await g.call('browser.open', { url });
    expect(r.outcome).toBe('ok');
    expect(g.approvals).toHaveLength(1);
    expect(g.approvals[0]?.risk).toBe('network');
    expect(g.approvals[0]?.destination).toBe(url);
    expect(g.approvals[0]?.summary.en).toContain(url);
    expect(requestsWhenAsked).toBe(0);
  });

  it('browser.screenshot writes a valid PNG of the first screen, and of the whole page with fullPage', async () => {
    const site = await intranet();
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'en' });
    const first = await g.call('browser.screenshot', { url: `${site.origin}/intra/long`, path: '캡처/첫화면.png' });
    expect(first.outcome).toBe('ok');
    expect(first.text).toContain("Saved '캡처/첫화면.png' (1280×800");
    const shot = pngFacts(await readFile(join(g.workspace, '캡처', '첫화면.png')));
    expect(shot).toEqual({ signature: true, width: 1280, height: 800 });

    const whole = await g.call('browser.screenshot', { url: `${site.origin}/intra/long`, path: 'whole.png', fullPage: true });
    expect(whole.outcome).toBe('ok');
    const full = pngFacts(await readFile(join(g.workspace, 'whole.png')));
    expect(full).toEqual({ signature: true, width: 1280, height: 2400 });
    expect(g.approvals.map((a) => a.destination)).toEqual([`${site.origin}/intra/long`, `${site.origin}/intra/long`]);
  });

  it('pages that declare no charset read right, in UTF-8 and in EUC-KR (똠 is a UHC-only syllable)', async () => {
    const site = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const page = '<title>문자셋 없음</title><p>사내 공지: 똠방각하</p>';
      res.end(req.path.endsWith('euckr') ? iconv.encode(page, 'cp949') : Buffer.from(page, 'utf8'));
    });
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'ko' });
    for (const path of ['utf8', 'euckr']) {
      const r = await g.call('browser.open', { url: `${site.origin}/intra/${path}` });
      expect(r.outcome, path).toBe('ok');
      expect(r.text, path).toContain('# 문자셋 없음');
      expect(r.text, path).toContain('사내 공지: 똠방각하');
    }
  });

  it('groupware in frames: each allowed frame\'s text follows the page\'s', async () => {
    const site = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (req.path === '/intra/frames') res.end('<title>그룹웨어</title><frameset cols="30%,70%"><frame src="/intra/menu"><frame src="/intra/content"></frameset>');
      else if (req.path === '/intra/menu') res.end('<a href="/intra/content">공지사항</a>');
      else res.end('<h2>공지 본문</h2><p>프레임 안의 글</p>');
    });
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'ko' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/frames` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain(`[frame ${site.origin}/intra/menu]\n공지사항`);
    expect(r.text).toContain(`[frame ${site.origin}/intra/content]\n## 공지 본문`);
    expect(r.text).toContain('프레임 안의 글');
  });

  it('a huge page comes back cut to the output budget, and says so', async () => {
    const site = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      // 200,000 characters of text, built by the page's script.
      res.end('<title>큰 페이지</title><div id="t"></div><script>document.getElementById("t").textContent = "가".repeat(200000);</script>');
    });
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'en' });
    const r = await g.call('browser.open', { url: `${site.origin}/intra/big` });
    expect(r.outcome).toBe('ok');
    expect(r.text.length).toBeLessThanOrEqual(30_000);
    expect(r.text).toMatch(/\[page text cut at \d+ of 200000 characters\]/);
    expect((r.details as { truncated: boolean }).truncated).toBe(true);
  });

  it('a host name in the allowlist works: the host resolves it (the browser itself resolves nothing)', async () => {
    const site = await intranet();
    const prefix = `http://localhost:${site.port}/intra/`;
    const g = await open({ policy: policyFor(prefix), lang: 'ko' });
    const r = await g.call('browser.open', { url: `${prefix}notice` });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('사내 공지: 똠방각하 워크숍');
  });

  it('a full-page shot of a page larger than the caps stops at them, and says so', async () => {
    const site = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<title>아주 큰 페이지</title><body style="margin:0"><div style="width:6000px;height:20000px;background:linear-gradient(#39c,#c93)"></div></body>');
    });
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'en' });
    const r = await g.call('browser.screenshot', { url: `${site.origin}/intra/huge`, path: 'huge.png', fullPage: true });
    expect(r.outcome).toBe('ok');
    expect(pngFacts(await readFile(join(g.workspace, 'huge.png')))).toEqual({ signature: true, width: 4096, height: 16384 });
    expect(r.text).toContain('[the page is larger; the image holds its top-left 4096×16384 px]');
  });

  it('browser.screenshot does not overwrite an existing file unless asked, and only saves .png', async () => {
    const site = await intranet();
    const g = await open({ policy: policyFor(`${site.origin}/intra/`), lang: 'en' });
    await writeFile(join(g.workspace, 'old.png'), 'keep me');
    const refused = await g.call('browser.screenshot', { url: `${site.origin}/intra/long`, path: 'old.png' });
    expect(refused.outcome).toBe('refused');
    expect(refused.text).toContain('overwrite');
    expect(await readFile(join(g.workspace, 'old.png'), 'utf8')).toBe('keep me');
    const script = await g.call('browser.screenshot', { url: `${site.origin}/intra/long`, path: 'run.bat' });
    expect(script.outcome).toBe('refused');
    expect(script.text).toContain('.png');
    expect(existsSync(join(g.workspace, 'run.bat'))).toBe(false);
    expect(g.approvals).toHaveLength(0);
    expect(site.requests).toHaveLength(0);

    const replaced = await g.call('browser.screenshot', { url: `${site.origin}/intra/long`, path: 'old.png', overwrite: true });
    expect(replaced.outcome).toBe('ok');
    expect(pngFacts(await readFile(join(g.workspace, 'old.png'))).signature).toBe(true);
  });
});
