import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';
import { git, officeRepo, put } from './git-fixture';

/**
 * The five git tools through the real gate, on real repositories made with git 2.39 in a temp
 * workspace (docs/2026-12-03-git-tools.md): what an office worker asking "무엇이 바뀌었어?" reads.
 */

const open = useTestGate();

describe('git.status', () => {
  it('summarises the branch and every kind of change, with Korean names as they are', async () => {
    const g = await open({ lang: 'ko' });
    officeRepo(join(g.workspace, '프로젝트'));
    const r = await g.call('git.status', { path: '프로젝트' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("저장소 '프로젝트' · 브랜치 main");
    expect(r.text).toContain('변경된 파일 4개');
    expect(r.text).toMatch(/이름 바꿈: 프로젝트\/계획\.txt → 프로젝트\/일정 계획\.txt/);
    expect(r.text).toMatch(/커밋할 준비가 된 변경[^\n]*\n(?:.*\n)*?\s+수정: 프로젝트\/로고\.bin/);
    expect(r.text).toMatch(/아직 스테이징하지 않은 변경:\n\s+수정: 프로젝트\/문서\/보고서\.txt/);
    expect(r.text).toMatch(/추적하지 않는 새 파일·폴더:\n\s+프로젝트\/새 메모\.txt/);
    // No octal escapes of quoted names anywhere.
    expect(r.text).not.toMatch(/\\3\d\d/);
    // Read-only and inside the workspace: allowed without asking.
    expect(g.approvals).toHaveLength(0);
  });

  it('in English, and a clean repository says so; a sub-folder narrows the list', async () => {
    const g = await open({ lang: 'en' });
    const repo = join(g.workspace, 'repo');
    officeRepo(repo);
    const narrowed = await g.call('git.status', { path: 'repo/문서' });
    expect(narrowed.outcome).toBe('ok');
    expect(narrowed.text).toContain('1 changed file(s): modified 1');
    expect(narrowed.text).toContain('repo/문서/보고서.txt');
    expect(narrowed.text).not.toContain('새 메모');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'all');
    const clean = await g.call('git.status', { path: 'repo' });
    expect(clean.text).toContain('No changed files');
  });

  it('a folder that is not a repository is refused before anything runs, saying what to do', async () => {
    const g = await open({ lang: 'ko' });
    mkdirSync(join(g.workspace, '그냥 폴더'));
    const r = await g.call('git.status', { path: '그냥 폴더' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain("'그냥 폴더'는 git 저장소가 아닙니다");
    expect(r.text).toContain('path');
    // The workspace itself is no repository, but one lies right inside it: the refusal names it.
    officeRepo(join(g.workspace, '프로젝트'));
    const root = await g.call('git.status', {});
    expect(root.outcome).toBe('refused');
    expect(root.text).toContain("이 안의 저장소: '프로젝트'");
    const events = await g.auditEvents();
    expect(events.filter((e) => e['type'] === 'precheck.refused')).toHaveLength(2);
    expect(events.filter((e) => e['type'] === 'execution.started')).toHaveLength(0);
  });
});

describe('git.log', () => {
  it('lists commits newest first with author, subject and counts; file narrows to one file', async () => {
    const g = await open({ lang: 'ko' });
    const repo = join(g.workspace, 'repo');
    const { first, second } = officeRepo(repo);
    const all = await g.call('git.log', { path: 'repo' });
    expect(all.outcome).toBe('ok');
    expect(all.text).toContain('커밋 2개');
    const lines = all.text.split('\n');
    const i2 = lines.findIndex((l) => l.startsWith(second.slice(0, 10)));
    const i1 = lines.findIndex((l) => l.startsWith(first.slice(0, 10)));
    expect(i2).toBeGreaterThan(0);
    expect(i1).toBeGreaterThan(i2);
    expect(lines[i2]).toContain('홍길동 — 보고서 둘째 줄 수정 (파일 1개, +2 −1)');
    expect(lines[i1]).toContain('첫 커밋: 보고서 초안 (파일 3개');
    const one = await g.call('git.log', { file: 'repo/계획.txt' });
    expect(one.outcome).toBe('ok');
    expect(one.text).toContain('커밋 1개');
    expect(one.text).toContain('첫 커밋');
  });

  it('maxCount limits and the note says how to go on; a bad or unknown ref is refused', async () => {
    const g = await open({ lang: 'en' });
    const repo = join(g.workspace, 'repo');
    const { second } = officeRepo(repo);
    const r = await g.call('git.log', { path: 'repo', maxCount: 1 });
    expect(r.text).toContain('1 commit(s)');
    expect(r.text).toContain(`pass ref "${second.slice(0, 10)}~1"`);
    const next = await g.call('git.log', { path: 'repo', ref: `${second.slice(0, 10)}~1` });
    expect(next.text).toContain('첫 커밋');
    expect(next.text).not.toContain('둘째 줄 수정');
    const smuggled = await g.call('git.log', { path: 'repo', ref: '--output=/tmp/x' });
    expect(smuggled.outcome).toBe('refused');
    expect(smuggled.text).toContain('cannot be used as a commit or branch');
    const unknown = await g.call('git.log', { path: 'repo', ref: 'no-such-branch' });
    expect(unknown.outcome).toBe('error');
    expect(unknown.text).toContain("no commit or branch 'no-such-branch'");
  });
});

describe('git.diff', () => {
  it('shows every uncommitted change against the last commit: hunks, the rename, the binary file summarised', async () => {
    const g = await open({ lang: 'ko' });
    officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.diff', { path: 'repo' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('바뀐 파일 3개');
    expect(r.text).toContain('이름 바꿈: repo/계획.txt → repo/일정 계획.txt (+0 −0)');
    expect(r.text).toContain('바이너리: repo/로고.bin (내용 비교 생략)');
    expect(r.text).toContain('--- repo/문서/보고서.txt');
    expect(r.text).toContain('+넷째 줄 추가');
    expect(r.text).toContain('(바이너리 파일: 내용은 보여 주지 않습니다)');
    expect(r.text).not.toMatch(/\\3\d\d/);
    expect(r.text).not.toContain('\0');
  });

  it('staged shows only the staging area; ref A..B compares two commits; file narrows', async () => {
    const g = await open({ lang: 'en' });
    const { first, second } = officeRepo(join(g.workspace, 'repo'));
    const staged = await g.call('git.diff', { path: 'repo', staged: true });
    expect(staged.text).toContain('2 file(s) changed');
    expect(staged.text).not.toContain('보고서');
    const range = await g.call('git.diff', { path: 'repo', ref: `${first.slice(0, 8)}..${second.slice(0, 8)}` });
    expect(range.outcome).toBe('ok');
    expect(range.text).toContain('1 file(s) changed (+2 −1)');
    expect(range.text).toContain('-둘째 줄');
    expect(range.text).toContain('+둘째 줄 고침');
    const one = await g.call('git.diff', { file: 'repo/문서/보고서.txt' });
    expect(one.text).toContain('1 file(s) changed');
    const bad = await g.call('git.diff', { path: 'repo', ref: 'HEAD:문서/보고서.txt' });
    expect(bad.outcome).toBe('refused');
  });

  it('a huge diff is cut to the output budget with a note on how to see more', async () => {
    const g = await open({ lang: 'ko', policy: { shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'], maxOutputChars: 3000 } } });
    const repo = join(g.workspace, 'repo');
    officeRepo(repo);
    put(repo, '큰 파일.txt', Array.from({ length: 5000 }, (_, i) => `줄 ${i}`).join('\n'));
    git(repo, 'add', '큰 파일.txt');
    const r = await g.call('git.diff', { path: 'repo' });
    expect(r.outcome).toBe('ok');
    expect(r.text.length).toBeLessThanOrEqual(3000);
    expect(r.text).toContain('새 파일: repo/큰 파일.txt (+5000 −0)');
    expect(r.text).toMatch(/file에 그 파일 하나를 주어 다시 보세요/);
  });
});

describe('git.show', () => {
  it('shows one commit: author, date, message and its changes', async () => {
    const g = await open({ lang: 'ko' });
    const { second } = officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.show', { ref: 'HEAD', path: 'repo' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain(`커밋 ${second}`);
    expect(r.text).toContain('작성자: 홍길동 <hong@example.invalid>');
    expect(r.text).toContain('    보고서 둘째 줄 수정');
    expect(r.text).toContain('바뀐 파일 1개 (+2 −1)');
    expect(r.text).toContain('+셋째 줄');
    const first = await g.call('git.show', { ref: 'HEAD~1', path: 'repo', file: 'repo/로고.bin' });
    expect(first.text).toContain('첫 커밋: 보고서 초안');
    expect(first.text).toContain('새 파일: repo/로고.bin (바이너리, 내용 비교 생략)');
    expect(first.text).not.toContain('보고서.txt');
  });

  it('an unknown commit is an error that sends the model to git.log', async () => {
    const g = await open({ lang: 'ko' });
    officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.show', { ref: 'abcdef1234', path: 'repo' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain("'abcdef1234'라는 커밋이나 브랜치가 없습니다");
    expect(r.text).toContain('git.log');
  });
});

describe('git.blame', () => {
  it('names the commit, author and date of each line; uncommitted lines say so', async () => {
    const g = await open({ lang: 'ko' });
    const { first, second } = officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.blame', { file: 'repo/문서/보고서.txt' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain("'repo/문서/보고서.txt' 1–4행");
    expect(r.text).toMatch(new RegExp(`${first.slice(0, 10)} 홍길동 \\d{4}-\\d\\d-\\d\\d "첫 커밋: 보고서 초안"\\n\\s+1│첫째 줄`));
    expect(r.text).toMatch(new RegExp(`${second.slice(0, 10)} 홍길동 [^\\n]*\\n\\s+2│둘째 줄 고침\\n\\s+3│셋째 줄`));
    expect(r.text).toMatch(/\(아직 커밋 안 됨\)\n\s+4│넷째 줄 추가/);
  });

  it('a line range, and the note that the file goes on', async () => {
    const g = await open({ lang: 'en' });
    officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.blame', { file: 'repo/문서/보고서.txt', startLine: 2, lineCount: 1 });
    expect(r.text).toContain('lines 2–2');
    expect(r.text).not.toContain('1│');
    expect(r.text).toContain('startLine: 3');
    const missing = await g.call('git.blame', { file: 'repo/없는 파일.txt' });
    expect(missing.outcome).toBe('refused');
  });
});

describe('names git lists are shown as data', () => {
  it('a file name with a newline or a tab is escaped, so it cannot pass for another line of the answer', async () => {
    const g = await open({ lang: 'ko' });
    const repo = join(g.workspace, 'repo');
    officeRepo(repo);
    put(repo, '가짜\n  수정: 인사/급여.txt', 'x\n');
    put(repo, '탭\t이름.txt', 'y\n');
    git(repo, 'add', '-A');
    for (const [tool, args] of [['git.status', { path: 'repo' }], ['git.diff', { path: 'repo' }]] as const) {
      const r = await g.call(tool, args);
      expect(r.outcome).toBe('ok');
      expect(r.text).toContain('repo/가짜\\n  수정: 인사/급여.txt');
      expect(r.text).toContain('repo/탭\\t이름.txt');
      expect(r.text.split('\n').some((l) => l.trim().startsWith('수정: 인사/급여.txt'))).toBe(false);
    }
  });
});

describe('every answer fits the output budget and says how to see more', () => {
  const SMALL = { shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'], maxOutputChars: 2000 } };

  it('status, log and blame on a big repository', async () => {
    const g = await open({ lang: 'ko', policy: SMALL });
    const repo = join(g.workspace, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    put(repo, '긴 문서.txt', Array.from({ length: 1500 }, (_, i) => `${i + 1}번째 줄입니다`).join('\n') + '\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', '긴 문서');
    for (let i = 0; i < 60; i++) git(repo, 'commit', '-q', '--allow-empty', '-m', `빈 커밋 ${i} — 회의 내용 정리와 후속 조치 항목을 길게 적은 제목`);
    for (let i = 0; i < 300; i++) put(repo, `새 파일 ${String(i).padStart(3, '0')}.txt`, 'x\n');

    const status = await g.call('git.status', { path: 'repo' });
    expect(status.outcome).toBe('ok');
    expect(status.text.length).toBeLessThanOrEqual(2000);
    expect(status.text).toContain('변경된 파일 300개');
    expect(status.text).toMatch(/… \d+줄 더 있음\. path로 하위 폴더를 주어 좁혀 보세요\./);

    const log = await g.call('git.log', { path: 'repo', maxCount: 200 });
    expect(log.text.length).toBeLessThanOrEqual(2000);
    expect(log.text).toMatch(/커밋 \d+개는 출력 한도 때문에 생략했습니다\. maxCount를 줄이거나/);

    const blame = await g.call('git.blame', { file: 'repo/긴 문서.txt', lineCount: 2000 });
    expect(blame.text.length).toBeLessThanOrEqual(2000);
    expect(blame.text).toMatch(/출력 한도 때문에 \d+줄 생략\. startLine: \d+부터 이어서/);
    const next = Number(/startLine: (\d+)부터/.exec(blame.text)?.[1]);
    const more = await g.call('git.blame', { file: 'repo/긴 문서.txt', startLine: next, lineCount: 5 });
    expect(more.text).toContain(`${next}│${next}번째 줄입니다`);
  });
});

describe('a repository without commits, a merge and a tag', () => {
  it('status and diff work before the first commit; log and blame say there is none yet', async () => {
    const g = await open({ lang: 'ko' });
    const repo = join(g.workspace, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    put(repo, '처음.txt', '안녕\n');
    git(repo, 'add', '처음.txt');
    const status = await g.call('git.status', { path: 'repo' });
    expect(status.text).toContain('아직 커밋 없음');
    expect(status.text).toContain('새 파일: repo/처음.txt');
    const diff = await g.call('git.diff', { path: 'repo' });
    expect(diff.outcome).toBe('ok');
    expect(diff.text).toContain('새 파일: repo/처음.txt (+1 −0)');
    expect(diff.text).toContain('+안녕');
    for (const [tool, args] of [['git.log', { path: 'repo' }], ['git.blame', { file: 'repo/처음.txt' }]] as const) {
      const r = await g.call(tool, args);
      expect({ tool, outcome: r.outcome }).toEqual({ tool, outcome: 'error' });
      expect(r.text).toContain('아직 커밋이 없습니다');
    }
  });

  it('a tag names its commit; a merge commit is shown as one', async () => {
    const g = await open({ lang: 'en' });
    const repo = join(g.workspace, 'repo');
    const { second } = officeRepo(repo);
    git(repo, 'stash', '-u', '-q');
    git(repo, 'tag', '-a', 'v1.0', '-m', 'release');
    git(repo, 'checkout', '-q', '-b', 'side');
    put(repo, '옆.txt', 'side\n');
    git(repo, 'add', '옆.txt');
    git(repo, 'commit', '-q', '-m', 'side work');
    git(repo, 'checkout', '-q', 'main');
    put(repo, '본.txt', 'main\n');
    git(repo, 'add', '본.txt');
    git(repo, 'commit', '-q', '-m', 'main work');
    git(repo, 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const tagged = await g.call('git.show', { ref: 'v1.0', path: 'repo' });
    expect(tagged.outcome).toBe('ok');
    expect(tagged.text).toContain(`commit ${second}`);
    const merge = await g.call('git.show', { ref: 'HEAD', path: 'repo' });
    expect(merge.outcome).toBe('ok');
    expect(merge.text).toMatch(/\(merge of [0-9a-f]{10} \+ [0-9a-f]{10}\)/);
    expect(merge.text).toContain('merge side');
    const log = await g.call('git.log', { path: 'repo', ref: 'side', maxCount: 5 });
    expect(log.text).toContain('side work');
    expect(log.text).not.toContain('main work');
  });
});

describe('files are held to the workspace and to the repository', () => {
  it('a file in another folder of the workspace, or outside it, is refused with what to do', async () => {
    const g = await open({ lang: 'ko' });
    officeRepo(join(g.workspace, 'repo'));
    put(g.workspace, '다른 폴더/메모.txt', 'x\n');
    const other = await g.call('git.log', { path: 'repo', file: '다른 폴더/메모.txt' });
    expect(other.outcome).toBe('refused');
    expect(other.text).toContain("'다른 폴더/메모.txt'은(는) 저장소 'repo' 밖에 있습니다");
    // Outside the roots: the gate's permission layer denies it before the tool is consulted.
    const outside = await g.call('git.diff', { path: 'repo', file: '../outside/x.txt' });
    expect(outside.outcome).toBe('denied');
    const absolute = await g.call('git.blame', { file: '/etc/passwd' });
    expect(absolute.outcome).not.toBe('ok');
  });

  it('an ask rule puts the call to the human with the git file that runs; a denial runs nothing', async () => {
    const g = await open({ lang: 'en', approve: () => ({ choice: 'deny', approver: 'test', reason: 'not now' }), policy: { rules: { ask: ['git.diff'] }, shell: { commands: { git: {} }, trustedDirs: ['/usr/bin', '/bin'] } } });
    officeRepo(join(g.workspace, 'repo'));
    const r = await g.call('git.diff', { path: 'repo' });
    expect(r.outcome).toBe('denied');
    expect(g.approvals).toHaveLength(1);
    const request = g.approvals[0]!;
    expect(JSON.stringify(request)).toContain("Shows what changed in 'repo'");
    expect(JSON.stringify(request)).toContain('/usr/bin/git');
    const events = await g.auditEvents();
    expect(events.filter((e) => e['type'] === 'execution.started')).toHaveLength(0);
  });
});
