import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../../../electron/common/approval';
import { renderApproval, terminalBroker } from '../../../electron/main/cli/terminal-approval';

/** Issue 15 item 7: the terminal approval in plain Korean, with Korean keys and its own lines. */
function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    callId: 'c1',
    digest: 'ab'.repeat(32),
    tool: 'filesystem.move',
    risk: 'write',
    summary: { ko: '파일 2개를 2022로 옮깁니다', en: 'Moves 2 files into 2022' },
    args: { from: '*.jpg', to: '2022' },
    targets: [
      { path: 'a.jpg', to: '2022/a.jpg', absolutePath: '/home/kim/다운로드/a.jpg', absoluteTo: '/home/kim/다운로드/2022/a.jpg', exists: true },
      { path: 'b.jpg', to: '2022/b.jpg', absolutePath: '/home/kim/다운로드/b.jpg', absoluteTo: '/home/kim/다운로드/2022/b.jpg', exists: true },
    ],
    rule: 'defaults.write',
    ruleSource: 'builtin',
    lang: 'ko',
    timeoutMs: 300_000,
    ...overrides,
  };
}

/** Drives the broker: waits until the prompt is shown, then types `lines`. Resolves with the decision and all output. */
async function answer(lines: string[], r = request(), signal = new AbortController().signal): Promise<{ decision: ApprovalDecision; output: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  const prompted = new Promise<void>((resolve) =>
    output.on('data', (d: Buffer) => {
      shown += d.toString('utf8');
      if (/\[y\]/.test(shown)) resolve();
    }),
  );
  const decision = terminalBroker(input, output).request(r, signal);
  await prompted;
  for (const line of lines) input.write(`${line}\n`);
  return { decision: await decision, output: shown };
}

describe('the terminal approval', () => {
  it('speaks plain Korean: no risk codes, rule sources or digests, absolute paths, a check code', () => {
    const shown = renderApproval(request());
    expect(shown).toContain('하는 일: 파일을 만들거나 바꿈');
    expect(shown).toContain('승인을 묻는 이유: 기본 설정: 이런 작업은 승인을 받습니다');
    expect(shown).toContain('/home/kim/다운로드/a.jpg → /home/kim/다운로드/2022/a.jpg');
    expect(shown).not.toMatch(/위험도|builtin|다이제스트|defaults\.write/);
  });

  it('repeats the summary and the time left just above the prompt', async () => {
    const { output } = await answer(['y']);
    expect(output).toMatch(/파일 2개를 2022로 옮깁니다\n\[y\] 한 번 허용 .* — [45]분( \d+초)? 안에 답하지 않으면 거부됩니다 >/);
  });

  it.each([
    ['ㅛ', 'allow-once'],
    ['예', 'allow-once'],
    ['ㄴ', 'allow-session'],
  ])('accepts %s typed with Hangul on', async (key, choice) => {
    const { decision } = await answer([key]);
    expect(decision).toMatchObject({ callId: 'c1', digest: 'ab'.repeat(32), choice });
  });

  it('ㅜ denies and asks for a reason', async () => {
    const { decision } = await answer(['ㅜ', '폴더가 틀렸어요']);
    expect(decision).toMatchObject({ choice: 'deny', reason: '폴더가 틀렸어요' });
  });

  it('an unknown key gets a hint (y/s/n, the 한/영 key) and the prompt again', async () => {
    const { decision, output } = await answer(['ㅇ', 'y']);
    expect(output).toContain("'ㅇ'은(는) 알 수 없는 답입니다");
    expect(output).toContain('한/영 키');
    expect(decision.choice).toBe('allow-once');
  });

  it('a timeout prints a line of its own', async () => {
    const stop = new AbortController();
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString('utf8')));
    const decision = terminalBroker(input, output).request(request({ timeoutMs: 90_000 }), stop.signal);
    stop.abort('timeout');
    expect((await decision).choice).toBe('deny');
    expect(shown).toContain('1분 30초 동안 답이 없어 이 요청은 거부되었습니다.');
  });

  it('says so when keys typed before it was ready are ignored', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString('utf8')));
    const stop = new AbortController();
    const decision = terminalBroker(input, output).request(request(), stop.signal);
    input.write('y\n'); // at once: before the arm delay has passed
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    stop.abort('cancelled');
    await decision;
    expect(shown).toContain('준비되기 전에 입력한 내용은 무시했습니다');
  });
});
