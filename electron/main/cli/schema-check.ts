import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { pick, text, type Lang } from '../../common/i18n';
import { admitExternalSchema, type ExternalSchemaRule } from '../policy/external-schema';
import { jsonPath, pointerSegments, type PathSegment } from '../policy/json-path';
import { parseJsonc } from '../policy/jsonc';
import { flagString, parseArgs, UsageError } from './args';
import { langFlag } from './session-flags';

/**
 * `baram schema check FILE [--json] [--lang ko|en]` (SPEC §7, X-SCHEMA): what registration would
 * say about a schema Baram did not write, before an administrator lists its server in the policy.
 * FILE is one JSON Schema, a list of tools ({name, inputSchema}, a vendor manifest), or an MCP
 * tools/list result ({tools: […]}, bare or inside a JSON-RPC response). Each tool is judged alone,
 * as the registry judges it, and each violation names its rule and its JSON path in FILE.
 * Exit 0 when every tool would be admitted, 1 when any would be refused or FILE cannot be read.
 */

interface Entry {
  /** Tool name, or the file name for a single schema. */
  readonly name: string;
  /** Where the entry's schema sits in FILE. */
  readonly at: readonly PathSegment[];
  readonly schema: unknown;
  /** Set when the entry is not even a tool ({name, inputSchema}). */
  readonly malformed?: boolean;
}

interface Verdict {
  readonly name: string;
  readonly ok: boolean;
  readonly dialect?: string;
  readonly violations: readonly {
    readonly rule: ExternalSchemaRule | 'not-a-tool';
    /** JSON Pointer into the tool's schema (what the registry reports). */
    readonly path: string;
    readonly message: string;
    /** The same place as a JSON path into FILE, as `baram policy check` writes paths. */
    readonly jsonPath: string;
  }[];
}

export async function schemaCheckCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['lang'], ['json']);
  const lang = langFlag(flagString(args, 'lang'));
  const [file, ...extra] = args.positional;
  if (!file || extra.length > 0) {
    throw new UsageError(text('사용법: baram schema check FILE [--json] [--lang ko|en]', 'Usage: baram schema check FILE [--json] [--lang ko|en]'));
  }
  const document = await readDocument(file, lang);
  if (!document.ok && args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify({ file, problems: document.problems }, null, 2)}\n`);
    return 1;
  }
  if (!document.ok) {
    process.stdout.write(`${pick(text(`${file}: 문제 ${document.problems.length}개`, `${file}: ${document.problems.length} problem${document.problems.length === 1 ? '' : 's'}`), lang)}\n`);
    for (const p of document.problems) process.stdout.write(`  ${p}\n`);
    return 1;
  }
  const verdicts = entriesOf(document.value, file).map((entry) => judge(entry, lang));
  if (args.flags.has('json')) process.stdout.write(`${JSON.stringify({ file, tools: verdicts }, null, 2)}\n`);
  else printVerdicts(file, verdicts, lang);
  return verdicts.every((v) => v.ok) ? 0 : 1;
}

async function readDocument(file: string, lang: Lang): Promise<{ ok: true; value: unknown } | { ok: false; problems: string[] }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? text('파일이 없습니다', 'it does not exist') : code === 'EACCES' || code === 'EPERM' ? text('읽을 권한이 없습니다', 'permission denied') : text(code, code);
    return { ok: false, problems: [`$: ${pick(text(`스키마 파일을 읽을 수 없습니다(${why.ko}). 경로를 확인하세요.`, `Cannot read the schema file (${why.en}). Check the path.`), lang)}`] };
  }
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, problems: [`$: ${pick(text('UTF-8이 아닌 파일입니다. UTF-8로 다시 저장하세요.', 'The file is not UTF-8. Save it again as UTF-8.'), lang)}`] };
  }
  if (source.replace(/^\uFEFF/, '').trim() === '') {
    return { ok: false, problems: [`$: ${pick(text('파일이 비어 있습니다. JSON Schema 객체나 도구 목록을 쓰세요.', 'The file is empty. Write a JSON Schema object or a list of tools.'), lang)}`] };
  }
  // The policy reader: line:column for syntax errors, and duplicate keys refused (two parsers
  // reading different values for one key is how a checked schema differs from a used one).
  const parsed = parseJsonc(source);
  if (!parsed.ok) return { ok: false, problems: parsed.problems.map((p) => `${p.path}: ${pick(p.message, lang)}`) };
  return { ok: true, value: parsed.value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The tools in FILE, each with where its schema sits. */
function entriesOf(value: unknown, file: string): Entry[] {
  let list: unknown[] | undefined;
  let at: PathSegment[] = [];
  if (Array.isArray(value)) list = value;
  else if (isObject(value) && Array.isArray(value.tools)) [list, at] = [value.tools, ['tools']];
  else if (isObject(value) && isObject(value.result) && Array.isArray(value.result.tools)) [list, at] = [value.result.tools, ['result', 'tools']];
  if (!list) return [{ name: basename(file), at: [], schema: value }];
  return list.map((tool, i) => {
    const where = [...at, i];
    if (!isObject(tool) || typeof tool.name !== 'string' || !('inputSchema' in tool)) {
      return { name: isObject(tool) && typeof tool.name === 'string' ? tool.name : `#${i + 1}`, at: where, schema: undefined, malformed: true };
    }
    return { name: tool.name, at: [...where, 'inputSchema'], schema: tool.inputSchema };
  });
}

function judge(entry: Entry, lang: Lang): Verdict {
  if (entry.malformed) {
    const message = pick(
      text('[not-a-tool] 도구 항목에는 문자열 name과 inputSchema가 있어야 합니다({"name": "…", "inputSchema": {…}}).', '[not-a-tool] A tool entry needs a string name and an inputSchema ({"name": "…", "inputSchema": {…}}).'),
      lang,
    );
    return { name: entry.name, ok: false, violations: [{ rule: 'not-a-tool', path: '', message, jsonPath: jsonPath(entry.at) }] };
  }
  const admitted = admitExternalSchema(entry.schema, lang);
  if (admitted.ok) return { name: entry.name, ok: true, dialect: admitted.dialect, violations: [] };
  return {
    name: entry.name,
    ok: false,
    violations: admitted.violations.map(({ rule, path, message }) => ({ rule, path, message, jsonPath: jsonPath([...entry.at, ...pointerSegments(path, entry.schema)]) })),
  };
}

function printVerdicts(file: string, verdicts: readonly Verdict[], lang: Lang): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const refused = verdicts.filter((v) => !v.ok).length;
  if (refused === 0) out(`OK ${file}`);
  out(
    pick(
      text(`${file}: 도구 ${verdicts.length}개 중 ${verdicts.length - refused}개 통과, ${refused}개 거부`, `${file}: ${verdicts.length - refused} of ${verdicts.length} tool${verdicts.length === 1 ? '' : 's'} admitted, ${refused} refused`),
      lang,
    ),
  );
  for (const v of verdicts) {
    if (v.ok) {
      out(`  ${pick(text('통과', 'OK'), lang)} ${v.name} (${v.dialect})`);
      continue;
    }
    out(`  ${pick(text('거부', 'REFUSED'), lang)} ${v.name}: ${pick(text(`위반 ${v.violations.length}개`, `${v.violations.length} violation${v.violations.length === 1 ? '' : 's'}`), lang)}`);
    for (const violation of v.violations) out(`    ${violation.jsonPath}: ${violation.message}`);
  }
}
