import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** git as the test's own tool (not Baram's): no system or global configuration of this machine. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('/usr/bin/git', ['-c', 'user.name=홍길동', '-c', 'user.email=hong@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LANG: 'C' },
    encoding: 'utf8',
  });
}

export function put(dir: string, rel: string, content: string | Uint8Array): void {
  const file = join(dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * A repository with two commits and every kind of change the tools describe: Korean names, a
 * staged rename, a staged binary change, an unstaged edit, an untracked file.
 */
export function officeRepo(dir: string): { readonly first: string; readonly second: string } {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  put(dir, '문서/보고서.txt', '첫째 줄\n둘째 줄\n');
  put(dir, '계획.txt', '계획\n');
  put(dir, '로고.bin', new Uint8Array([0, 1, 2, 3, 0, 255]));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', '첫 커밋: 보고서 초안');
  const first = git(dir, 'rev-parse', 'HEAD').trim();
  put(dir, '문서/보고서.txt', '첫째 줄\n둘째 줄 고침\n셋째 줄\n');
  git(dir, 'commit', '-q', '-am', '보고서 둘째 줄 수정');
  const second = git(dir, 'rev-parse', 'HEAD').trim();
  // Uncommitted: a staged rename, a staged binary change, an unstaged edit, an untracked file.
  git(dir, 'mv', '계획.txt', '일정 계획.txt');
  put(dir, '로고.bin', new Uint8Array([0, 9, 9, 9, 0, 254, 7]));
  git(dir, 'add', '로고.bin');
  put(dir, '문서/보고서.txt', '첫째 줄\n둘째 줄 고침\n셋째 줄\n넷째 줄 추가\n');
  put(dir, '새 메모.txt', '메모\n');
  return { first, second };
}
