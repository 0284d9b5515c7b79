import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../electron/main/gate';

/**
 * Issue 15 item 6: a message or description that sends the model to a tool that does not exist
 * ("document 도구", `excel.read`) costs a failed call and teaches it a wrong name. Every tool name
 * in the tools' descriptions, schemas and message strings must be registered.
 */

const TOOLS_DIR = resolve(__dirname, '..', '..', 'tools');
/** The families of the product's catalog (SPEC §5), registered or not yet. */
const FAMILIES = ['filesystem', 'search', 'git', 'excel', 'document', 'word', 'pdf', 'hwp', 'code', 'shell', 'ssh', 'http', 'browser', 'archive', 'system'];
// A name may have three parts (document.pdf.read): the whole dotted name is what must be registered.
const TOOL_NAME = new RegExp(`\\b(?:${FAMILIES.join('|')})(?:\\.[a-z][a-zA-Z]*)+\\b`, 'g');
const FAMILY_PHRASE = new RegExp(`\\b(${FAMILIES.join('|')})\\s*(?:도구|tools?\\b)`, 'g');
const STRING_LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** String literals of a source file, comments left out (they may name future tools). */
function stringsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(STRING_LITERAL)].map((m) => m[0]);
}

/** Where each unregistered tool name or family is mentioned. */
function unregisteredMentions(where: string, texts: readonly string[], registered: ReadonlySet<string>, families: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const t of texts) {
    for (const m of t.matchAll(TOOL_NAME)) if (!registered.has(m[0])) out.push(`${where}: ${m[0]}`);
    for (const m of t.matchAll(FAMILY_PHRASE)) if (!families.has(m[1]!)) out.push(`${where}: ${m[0]}`);
  }
  return out;
}

describe('messages name only registered tools', () => {
  const registered = new Set(builtinTools.map((t) => t.name));
  const families = new Set(builtinTools.map((t) => t.name.split('.')[0]!));

  it('the scan finds what it looks for', () => {
    expect(unregisteredMentions('x', ["'클릭은 browser.click으로'", "'pdf 도구로'", "'the word tools'", "'document.pdf.open으로'"], registered, families)).toHaveLength(4);
    expect(unregisteredMentions('x', ["'filesystem.read로 읽으세요'", "'shell 도구'"], registered, families)).toEqual([]);
  });

  it('in every description, keyword and schema the model reads', () => {
    const found = builtinTools.flatMap((tool) =>
      unregisteredMentions(tool.name, [tool.description.ko, tool.description.en, ...tool.keywords, JSON.stringify(tool.input)], registered, families),
    );
    expect(found).toEqual([]);
  });

  it('in every message string under tools/', () => {
    const found = sourceFiles(TOOLS_DIR).flatMap((file) =>
      unregisteredMentions(relative(TOOLS_DIR, file), stringsOf(readFileSync(file, 'utf8')), registered, families),
    );
    expect(found).toEqual([]);
  });
});
