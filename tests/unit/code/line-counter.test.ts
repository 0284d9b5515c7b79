import { describe, expect, it } from 'vitest';
import { languageById, languageOfName, languageOfShebang, type LanguageId } from '../../../tools/code/languages';
import { countLines } from '../../../tools/code/line-counter';

function count(id: LanguageId, source: string) {
  return countLines(source, languageById(id).syntax);
}

describe('code.stats line counter: what counts as a comment line', () => {
  it('C-like: line and block comments, code with a trailing comment is code, blank lines', () => {
    const src = ['// 한 줄 주석', 'int a = 1; // trailing', '', '/* block', '   still block', '*/', 'int b = 2; /* x */ int c;', '   ', '/* one */ /* two */'].join('\n');
    expect(count('c', src)).toEqual({ code: 2, comment: 5, blank: 2 });
  });

  it('comment markers inside strings are not comments, and do not open a block', () => {
    const src = ['const url = "http://example.com/*not a comment";', 'const a = 1;', "const s = '// nor this';", 'const t = `multi', '/* still a string', '`;', '// real'].join('\n');
    expect(count('typescript', src)).toEqual({ code: 6, comment: 1, blank: 0 });
  });

  it('an escaped quote does not end a string', () => {
    expect(count('javascript', 'x = "a \\" /* b";\ny = 2;\n')).toEqual({ code: 2, comment: 0, blank: 0 });
  });

  it('Python: # comments, docstrings as comment lines, "#" inside strings is code', () => {
    const src = ['def f():', '    """설명', '    둘째 줄', '    """', '    s = "# not a comment"', '    # 진짜 주석', '    t = """not a docstring"""', ''].join('\n');
    expect(count('python', src)).toEqual({ code: 3, comment: 4, blank: 0 });
  });

  it('Rust: nested block comments and lifetimes', () => {
    const src = ["fn f<'a>(x: &'a str) -> char { 'x' } // c", '/* outer /* inner */ still comment', '*/', 'let s = r#"/* raw "# ;', "let c = '\\n';"].join('\n');
    expect(count('rust', src)).toEqual({ code: 3, comment: 2, blank: 0 });
  });

  it('Shell: "#" starts a comment only at a word start', () => {
    const src = ['#!/bin/sh', 'echo $# args # count', 'n=${#list}', '  # comment', 'echo "a # b"'].join('\n');
    expect(count('shell', src)).toEqual({ code: 3, comment: 2, blank: 0 });
  });

  it('SQL, HTML, PowerShell, Ruby, batch', () => {
    expect(count('sql', "-- 주석\nSELECT '--x' FROM t; -- t\n/* a\n*/")).toEqual({ code: 1, comment: 3, blank: 0 });
    expect(count('html', '<!-- a\nb -->\n<p>don\'t</p>')).toEqual({ code: 1, comment: 2, blank: 0 });
    expect(count('powershell', '<#\n help\n#>\nGet-Item # x\n# c')).toEqual({ code: 1, comment: 4, blank: 0 });
    expect(count('ruby', '=begin\ndoc\n=end\nputs "#{x}" # y\n')).toEqual({ code: 1, comment: 3, blank: 0 });
    expect(count('batch', '@echo off\nREM 주석\n:: also\nrem\ncopy a b')).toEqual({ code: 2, comment: 3, blank: 0 });
  });

  it('CRLF line ends and a missing final newline', () => {
    expect(count('java', 'class A {\r\n  // c\r\n\r\n}')).toEqual({ code: 2, comment: 1, blank: 1 });
  });
});

describe('code.stats language table', () => {
  it('by extension, file name and #! line', () => {
    expect(languageOfName('src/App.TSX')).toBe('typescript');
    expect(languageOfName('a/Makefile')).toBe('makefile');
    expect(languageOfName('notes.txt')).toBeNull();
    expect(languageOfShebang('#!/usr/bin/env python3.11')).toBe('python');
    expect(languageOfShebang('#!/bin/bash -e')).toBe('shell');
    expect(languageOfShebang('echo')).toBeNull();
  });
});
