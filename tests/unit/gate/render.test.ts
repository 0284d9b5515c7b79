import { describe, expect, it } from 'vitest';
import { renderResult } from '../../../electron/main/gate/render';

/** SPEC S-SHELL: body → cut → marker appended after the cut. */
describe('renderResult', () => {
  it('appends the marker after the cut, so a long output never loses it', () => {
    const body = 'x'.repeat(100);
    const text = renderResult(body, '[exit code: 1]', 40, 'en');
    expect(text.startsWith('x'.repeat(40) + '\n[output truncated: showing the first 40 of 100 characters')).toBe(true);
    expect(text.endsWith('\n[exit code: 1]')).toBe(true);
  });

  it('leaves a short body whole; no marker on success; a marker alone when there was no output', () => {
    expect(renderResult('done\n', undefined, 40, 'en')).toBe('done\n');
    expect(renderResult('fatal: not a git repository', '[exit code: 128]', 40, 'en')).toBe('fatal: not a git repository\n[exit code: 128]');
    expect(renderResult('', '[timed out after 1000 ms]', 40, 'en')).toBe('[timed out after 1000 ms]');
  });

  it('never splits a surrogate pair at the cut', () => {
    const text = renderResult(`${'a'.repeat(9)}😀tail`, undefined, 10, 'en');
    expect(text.startsWith(`${'a'.repeat(9)}\n`)).toBe(true);
  });
});
