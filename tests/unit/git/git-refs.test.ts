import { describe, expect, it } from 'vitest';
import { rangeRefs, refProblem } from '../../../tools/git/git-run';

/** What the git tools take as a ref (docs/2026-12-03-git-tools.md): revisions only, never an option or a path. */
describe('refProblem', () => {
  it.each(['HEAD', 'HEAD~2', 'HEAD^', 'HEAD~1^2', 'main', 'origin/main', 'feature/보고서-수정', 'v1.0.3', '3f2a9c1', 'a'.repeat(40), 'HEAD@{1}', 'release_2024+hotfix'])('accepts %s', (ref) => {
    expect(refProblem(ref)).toBeNull();
  });

  it.each([
    '-p', '--output=/tmp/x', '-o/tmp/x', '--no-index', '-', '',
    'HEAD:인사/급여.txt', 'HEAD --output=x', 'a b', 'a\nb', 'a\tb', 'x\0y',
    'main..dev', 'a//b', 'a/', 'a.', 'a.lock', 'HEAD^{tree}', '@{-1}', 'HEAD@{now}',
    'a*', 'a?', 'a[1]', 'a\\b', 'x'.repeat(201),
  ])('refuses %j', (ref) => {
    expect(refProblem(ref)).not.toBeNull();
  });
});

describe('rangeRefs (git.diff)', () => {
  it('splits A..B and A...B and checks each side', () => {
    expect(rangeRefs('main..dev')).toEqual({ refs: ['main', 'dev'], separator: '..' });
    expect(rangeRefs('HEAD~3...HEAD')).toEqual({ refs: ['HEAD~3', 'HEAD'], separator: '...' });
    expect(rangeRefs('HEAD~1')).toEqual({ refs: ['HEAD~1'], separator: '' });
    for (const bad of ['a..--output=x', '--output=x..a', '..HEAD', 'HEAD..', 'a..b..c']) expect('failure' in rangeRefs(bad)).toBe(true);
  });
});
