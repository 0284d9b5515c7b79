import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { defineCodeStats, STATS_LIMITS, type StatsLimits } from '../../../tools/code/stats';
import { createTestGate, useTestGate } from '../../helpers/gate-harness';

/**
 * code.stats through the real gate over a real folder: .gitignore, node_modules, a binary, a
 * CP949 file, comment markers inside strings, and a policy deny rule the walk must respect.
 */

// 4 code, 3 comment, 1 blank. The "/*" inside the string would otherwise swallow the next lines.
const TS = ['// 설정 파일', 'const url = "http://intra/*";', 'const a = 1;', '', '/* 여러 줄', ' */', 'export const b = `// 아님`;', 'const c = 2;'].join('\n') + '\n';
// 3 code, 2 comment (a docstring and a # line), 1 blank; the "#" inside the string is code.
const PY = ['def 계산():', '    """설명"""', '    s = "# 주석 아님"', '', '    # 진짜 주석', '    return s'].join('\n') + '\n';
// CP949 (Korean Windows' default): 2 code, 1 comment.
const CP949_JAVA = iconv.encode('// 급여 계산\nclass 급여 {\n}\n', 'cp949');

const open = useTestGate({
  policy: { rules: { deny: ['code.*(**/인사/**)'] } },
  files: {
    'proj/.gitignore': 'build/\n*.log\n',
    'proj/src/app.ts': TS,
    'proj/src/calc.py': PY,
    'proj/src/급여.java': CP949_JAVA,
    'proj/scripts/deploy': '#!/bin/bash\n# 배포\necho "# not a comment"\n',
    'proj/build/out.js': 'var generated = 1;\nvar x = 2;\n',
    'proj/debug.log': 'log line\n',
    'proj/node_modules/lib/index.js': 'module.exports = 1;\n',
    'proj/tool': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]),
    'proj/README.md': '# Project\n\n<!-- 메모 -->\ntext\n',
    'proj/data.csv': 'a,b\n1,2\n',
    'proj/인사/salary.py': 'SALARY_SECRET = 9000\n',
  },
});

function row(text: string, language: string): number[] {
  const line = text.split('\n').find((l) => l.startsWith(`${language} `));
  if (!line) throw new Error(`no row for ${language} in:\n${text}`);
  return line.slice(language.length).trim().split(/\s+/).map((n) => Number(n.replace(/,/g, '')));
}

describe('code.stats', () => {
  it('counts files, code, comment and blank lines per language, sorted by code lines, and says what it skipped', async () => {
    const g = await open();
    const r = await g.call('code.stats', { path: 'proj' });
    expect(r.outcome).toBe('ok');
    const lines = r.text.split('\n');
    expect(lines[0]).toBe("Code in 'proj': 5 files, 12 lines of code");
    expect(lines[1]).toMatch(/^Language\s+Files\s+Code\s+Comments\s+Blank$/);
    expect(row(r.text, 'TypeScript')).toEqual([1, 4, 3, 1]);
    expect(row(r.text, 'Python')).toEqual([1, 3, 2, 1]);
    expect(row(r.text, 'Java')).toEqual([1, 2, 1, 0]); // the CP949 file
    expect(row(r.text, 'Shell')).toEqual([1, 1, 2, 0]); // found by its #! line
    expect(row(r.text, 'Markdown')).toEqual([1, 2, 1, 1]);
    expect(row(r.text, 'Total')).toEqual([5, 12, 9, 3]);
    const order = lines.slice(2, 7).map((l) => l.split(/\s+/)[0]);
    expect(order).toEqual(['TypeScript', 'Python', 'Java', 'Markdown', 'Shell']);
    // build/out.js and debug.log by .gitignore, node_modules, the ELF binary, data.csv, the denied folder.
    expect(r.text).toContain('[Skipped: 1 in node_modules, 2 ignored by .gitignore, 1 binary, 1 not source code, 1 by policy.');
    expect(r.text).not.toContain('SALARY');
    expect(r.details).toMatchObject({ files: 5, code: 12, skipped: { binary: 1, gitignored: 2, nodeModules: 1, notCode: 1, policy: 1 } });
    expect(JSON.stringify(await g.auditEvents())).not.toContain('SALARY_SECRET');
    expect(g.approvals).toHaveLength(0);
  });

  it('without a path counts the first workspace root, in Korean', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('code.stats', {});
    expect(r.outcome).toBe('ok');
    expect(r.text.split('\n')[0]).toBe("'.' 코드 통계: 파일 5개, 코드 12줄");
    expect(r.text).toMatch(/^언어\s+파일\s+코드\s+주석\s+빈 줄$/m);
    expect(r.text).toContain('node_modules 안 1개');
    expect(r.text).toContain('.gitignore 대상 2개');
  });

  it('counts one file', async () => {
    const g = await open();
    const r = await g.call('code.stats', { path: 'proj/src/calc.py' });
    expect(r.outcome).toBe('ok');
    expect(r.text.split('\n')[0]).toBe("Code in 'proj/src/calc.py': 1 files, 3 lines of code");
    expect(row(r.text, 'Python')).toEqual([1, 3, 2, 1]);
  });

  it('stops at the file cap and at the byte cap, and skips a file over the per-file cap, each with a note', async () => {
    // The same tool with small caps (the registry's has STATS_LIMITS): the real gate and files.
    const withLimits = async (limits: Partial<StatsLimits>) => {
      const g = await createTestGate({ files, tools: [defineCodeStats({ ...STATS_LIMITS, ...limits })] });
      try {
        return await g.call('code.stats', { path: 'many' });
      } finally {
        await g.close();
      }
    };
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`many/f${String(i).padStart(2, '0')}.py`, 'x = 1\n'])) as Record<string, string>;
    files['many/zz-big.py'] = `x = "${'a'.repeat(100)}"\n`;

    const byFiles = await withLimits({ maxFiles: 5 });
    expect(byFiles.outcome).toBe('ok');
    expect(byFiles.text.split('\n')[0]).toBe("Code in 'many': 5 files, 5 lines of code");
    expect(byFiles.text).toContain('[Stopped at the limit (5 files): the numbers above cover only part of the folder. Count its subfolders one by one with path.]');
    expect(byFiles.details).toMatchObject({ capped: 'files' });

    const byBytes = await withLimits({ maxTotalBytes: 18 });
    expect(byBytes.text.split('\n')[0]).toBe("Code in 'many': 3 files, 3 lines of code"); // 6 bytes each
    expect(byBytes.text).toContain('[Stopped at the limit (18 B)');
    expect(byBytes.details).toMatchObject({ capped: 'bytes' });

    const perFile = await withLimits({ maxFileBytes: 64 });
    expect(perFile.text.split('\n')[0]).toBe("Code in 'many': 12 files, 12 lines of code");
    expect(perFile.text).toContain('[Skipped: 1 larger than 64 B.');
    expect(perFile.details).toMatchObject({ capped: null });
  });

  it('naming the denied folder is denied; a missing folder is refused with a signpost', async () => {
    const g = await open();
    const denied = await g.call('code.stats', { path: 'proj/인사' });
    expect(denied.outcome).toBe('denied');
    expect(denied.text ?? '').not.toContain('SALARY');
    const missing = await g.call('code.stats', { path: 'nope' });
    expect(missing.outcome).toBe('refused');
  });

  it('code.outline of a file in the denied folder is denied too', async () => {
    const g = await open();
    const r = await g.call('code.outline', { path: 'proj/인사/salary.py' });
    expect(r.outcome).toBe('denied');
    expect(r.text ?? '').not.toContain('SALARY');
  });

  it('Stop pressed while an ask rule waits for the human: cancelled, nothing counted', async () => {
    // Only the gate's side of Stop can be driven without timing; the tool's own check of the
    // signal between files (stats.ts) has no deterministic trigger from here.
    const stop = new AbortController();
    const g = await open({
      policy: { rules: { ask: ['code.stats'] } },
      approve: () => {
        stop.abort();
        return { choice: 'allow-once', approver: 'test' };
      },
    });
    const r = await g.call('code.stats', { path: 'proj' }, stop.signal);
    expect(r.outcome).toBe('cancelled');
    expect(r.text).not.toContain('TypeScript');
  });
});
