import { describe, expect, it } from 'vitest';
import { useTestGate } from '../../helpers/gate-harness';

/**
 * code.outline through the real gate on real files: tree-sitter's WASM grammars loaded from
 * node_modules, line numbers as an editor shows them, nesting by indentation.
 */

const TS = [
  '// 사용자 관리 모듈',
  'export interface 사용자 {',
  '  이름: string;',
  '}',
  '',
  'export type Id = string;',
  '',
  'export class 사용자서비스 {',
  '  constructor(private readonly db: Db) {}',
  '',
  '  /** 찾기 */',
  '  async 찾기(id: Id): Promise<사용자 | null> {',
  '    const s = "class NotAClass { }";',
  '    return null;',
  '  }',
  '',
  '  private 정리 = () => {};',
  '}',
  '',
  'export const 시작 = async () => {',
  '  function 안쪽() {}',
  '};',
  '',
].join('\n');

const PY = [
  '# -*- coding: utf-8 -*-',
  'class 보고서:',
  '    """보고서 클래스"""',
  '',
  '    def __init__(self, 제목):',
  '        self.제목 = 제목',
  '',
  '    class 항목:',
  '        def 출력(self):',
  '            pass',
  '',
  '    @staticmethod',
  '    def 만들기():',
  '        return 보고서("x")',
  '',
  'def main():',
  '    pass',
  '',
].join('\n');

const JAVA = [
  'package kr.example;',
  '',
  '/** 급여 계산 */',
  'public class 급여 {',
  '    public 급여() {}',
  '',
  '    public int 계산(int 시간) {',
  '        return 시간 * 10000;',
  '    }',
  '',
  '    static class 내부 {',
  '        void 보기() {}',
  '    }',
  '',
  '    interface 규칙 { int 적용(int x); }',
  '}',
  '',
  'enum 등급 { A, B }',
  '',
].join('\n');

const GO = [
  'package main',
  '',
  '// 서버 설정',
  'type Server struct {',
  '\tAddr string',
  '}',
  '',
  'type Handler interface {',
  '\tServe() error',
  '}',
  '',
  'func (s *Server) Start() error {',
  '\treturn nil',
  '}',
  '',
  'func 시작() {}',
  '',
].join('\n');

const open = useTestGate({
  files: {
    'src/user.ts': TS,
    'py/report.py': PY,
    'java/급여.java': JAVA,
    'go/server.go': GO,
    'notes/memo.txt': '회의 메모\n',
    'big/many.ts': Array.from({ length: 400 }, (_, i) => `export function fn${i}() {}\n`).join(''),
    'bin/run': '#!/usr/bin/env python3\ndef 실행():\n    pass\n',
    'more/default.ts': 'export default class {\n  저장() {}\n}\n',
    'more/point.rs': "struct P {}\nimpl std::fmt::Display for P {\n    fn fmt(&self) {}\n}\ntrait T { fn g<'a>(&'a self); }\n",
    'more/k.cs': 'namespace 회사 {\n  public class C {\n    public C() {}\n    void M() {}\n  }\n}\n',
    'more/m.c': '#include <stdio.h>\nstruct S { int x; };\nstatic int *mk(void) { return 0; }\nint main(void) { return 0; }\n',
    'more/a.cpp': 'namespace ns {\nclass A {\n public:\n  int f();\n};\n}\nint ns::A::f() { return 1; }\n',
  },
});

describe('code.outline', () => {
  it('outlines a TypeScript file: interfaces, types, classes with methods, arrow functions, Korean names, line numbers', async () => {
    const g = await open();
    const r = await g.call('code.outline', { path: 'src/user.ts' });
    expect(r.outcome).toBe('ok');
    const lines = r.text.split('\n');
    expect(lines[0]).toContain("'src/user.ts' (TypeScript, 22 lines)");
    expect(lines).toContain('interface 사용자  2–4');
    expect(lines).toContain('type Id  6');
    expect(lines).toContain('class 사용자서비스  8–18');
    expect(lines).toContain('  constructor  9');
    expect(lines).toContain('  method 찾기  12–15');
    expect(lines).toContain('  method 정리  17');
    expect(lines).toContain('function 시작  20–22');
    expect(lines).toContain('  function 안쪽  21');
    // A class keyword inside a string is not a class.
    expect(r.text).not.toContain('NotAClass');
    expect(g.approvals).toHaveLength(0); // read-only inside the workspace: allowed without asking
  });

  it('outlines Python with a nested class, a constructor and a decorated method', async () => {
    const g = await open();
    const r = await g.call('code.outline', { path: 'py/report.py' });
    expect(r.outcome).toBe('ok');
    const lines = r.text.split('\n');
    expect(lines).toContain('class 보고서  2–14');
    expect(lines).toContain('  constructor __init__  5–6');
    expect(lines).toContain('  class 항목  8–10');
    expect(lines).toContain('    method 출력  9–10');
    expect(lines).toContain('  method 만들기  13–14');
    expect(lines).toContain('function main  16–17');
  });

  it('outlines Java: constructor, methods, a static nested class, an inner interface, an enum (Korean file name)', async () => {
    const g = await open({ lang: 'ko' });
    const r = await g.call('code.outline', { path: 'java/급여.java' });
    expect(r.outcome).toBe('ok');
    const lines = r.text.split('\n');
    expect(lines[0]).toBe("'java/급여.java' (Java, 18줄): 심볼 8개");
    expect(lines).toContain('클래스 급여  4–16');
    expect(lines).toContain('  생성자 급여  5');
    expect(lines).toContain('  메서드 계산  7–9');
    expect(lines).toContain('  클래스 내부  11–13');
    expect(lines).toContain('    메서드 보기  12');
    expect(lines).toContain('  인터페이스 규칙  15');
    expect(lines).toContain('    메서드 적용  15');
    expect(lines).toContain('열거형 등급  18');
  });

  it('outlines Go: struct, interface, a method with its receiver, a Korean function name', async () => {
    const g = await open();
    const r = await g.call('code.outline', { path: 'go/server.go' });
    expect(r.outcome).toBe('ok');
    const lines = r.text.split('\n');
    expect(lines).toContain('struct Server  4–6');
    expect(lines).toContain('interface Handler  8–10');
    expect(lines).toContain('method Server.Start  12–14');
    expect(lines).toContain('function 시작  16');
  });

  it('outlines Rust, C#, C and C++, and an unnamed default class keeps its methods', async () => {
    const g = await open();
    const lines = async (path: string) => {
      const r = await g.call('code.outline', { path });
      expect(r.outcome).toBe('ok');
      return r.text.split('\n').slice(1);
    };
    expect(await lines('more/default.ts')).toEqual(['class (anonymous)  1–3', '  method 저장  2']);
    expect(await lines('more/point.rs')).toEqual(['struct P  1', 'impl std::fmt::Display for P  2–4', '  method fmt  3', 'trait T  5', '  method g  5']);
    expect(await lines('more/k.cs')).toEqual(['namespace 회사  1–6', '  class C  2–5', '    constructor C  3', '    method M  4']);
    expect(await lines('more/m.c')).toEqual(['struct S  2', 'function mk  3', 'function main  4']);
    expect(await lines('more/a.cpp')).toEqual(['namespace ns  1–6', '  class A  2–5', '    method f  4', 'function ns::A::f  7']);
  });

  it('finds the language of a file without an extension from its #! line', async () => {
    const g = await open();
    const r = await g.call('code.outline', { path: 'bin/run' });
    expect(r.outcome).toBe('ok');
    expect(r.text).toContain('(Python, 3 lines)');
    expect(r.text).toContain('function 실행  2–3');
  });

  it('cuts a long outline to the output budget and says where to read on', async () => {
    const g = await open();
    const full = await g.call('code.outline', { path: 'big/many.ts' });
    expect(full.outcome).toBe('ok');
    expect(full.text).toContain('function fn399  400');
    const r = await g.session.gate.call({ tool: 'code.outline', args: { path: 'big/many.ts' }, outputBudget: 1500 });
    expect(r.outcome).toBe('ok');
    expect(r.text.length).toBeLessThanOrEqual(1500);
    expect(r.text).toContain('function fn0  1');
    expect(r.text).not.toContain('function fn399');
    const note = /\[(\d+) more symbols, from line (\d+) on, left out to fit the output limit\. Read that part with filesystem\.read \(offset=(\d+)\)/.exec(r.text);
    expect(note).not.toBeNull();
    const shown = r.text.split('\n').filter((l) => l.startsWith('function ')).length;
    expect(Number(note![1])).toBe(400 - shown);
    expect(Number(note![2])).toBe(shown + 1); // fnN is on line N+1: the first symbol left out
  });

  it('refuses an unsupported file before running, naming the supported languages and filesystem.read (ko and en)', async () => {
    const g = await open();
    const r = await g.call('code.outline', { path: 'notes/memo.txt' });
    expect(r.outcome).toBe('refused');
    expect(r.text).toContain('Supported: TypeScript, JavaScript, Python, Java, C#, Go, Rust');
    expect(r.text).toContain('filesystem.read');
    const ko = await (await open({ lang: 'ko' })).call('code.outline', { path: 'notes/memo.txt' });
    expect(ko.text).toContain('지원 언어:');
    expect(ko.text).toContain('filesystem.read로 읽고');
  });

  it('a source file over the size cap is not parsed, with a signpost to search.text and filesystem.read', async () => {
    const g = await open({ files: { 'gen/bundle.js': `var x = ${'1 + '.repeat(300_000)}1;\n` } });
    const r = await g.call('code.outline', { path: 'gen/bundle.js' });
    expect(r.outcome).toBe('error');
    expect(r.text).toContain('too large to outline');
    expect(r.text).toContain('search.text');
  });

  it('a missing file and a folder are refused with a signpost', async () => {
    const g = await open();
    const missing = await g.call('code.outline', { path: 'src/nope.ts' });
    expect(missing.outcome).toBe('refused');
    const folder = await g.call('code.outline', { path: 'src' });
    expect(folder.outcome).toBe('refused');
  });
});
