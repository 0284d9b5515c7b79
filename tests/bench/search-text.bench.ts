import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import iconv from 'iconv-lite';
import type { FileAccess, WalkEntry } from '../../electron/common/file-access';
import { compileQuery } from '../../tools/search/engine/query';
import { searchFiles, type FileSource, type SearchReport } from '../../tools/search/engine/search-files';
import { formatBytes, formatMs, median, ratioLine, table, timeRuns } from './lib/stats';
import { ensureCorpus, type Corpus } from './search-text-corpus';

/**
 * search.text against grep and ripgrep on the same ≥ 50 MB corpus, in the same run.
 * Ours = the tool's engine and walk through the real host FileAccess (walk, confined reads), with
 * no result cap so every match is produced, as grep -rn and rg -n produce them.
 * Targets: faster than grep (ours/grep ≤ 1), within 3x of ripgrep (ours/rg ≤ 3).
 * grep runs with LC_ALL=C (its fastest configuration: no multibyte decoding) and -I (skip
 * binaries, as we and rg do). The corpus has no hidden and no ignore files, so the three tools see
 * the same files; the remaining count differences are the encodings grep and rg do not decode,
 * and the run checks them.
 *
 *   npx tsx tests/bench/search-text.bench.ts [repetitions]
 */
const REPETITIONS = Number(process.argv[2] ?? 5);
const TARGET_VS_GREP = 1;
const TARGET_VS_RG = 3;
const repoRoot = join(import.meta.dirname, '..', '..');

interface Case {
  readonly name: string;
  readonly pattern: string;
  readonly ignoreCase: boolean;
  readonly fixedString: boolean;
  /** Same search for grep (-E or -F) and rg. */
  readonly grepArgs: readonly string[];
  readonly rgArgs: readonly string[];
  /** Whether the speed targets apply (the last case is shown for information). */
  readonly targeted: boolean;
}

const CASES: readonly Case[] = [
  { name: 'literal word', pattern: 'readFileSync', ignoreCase: false, fixedString: true, grepArgs: ['-F'], rgArgs: ['-F'], targeted: true },
  { name: 'literal, ignoreCase', pattern: 'deprecated', ignoreCase: true, fixedString: true, grepArgs: ['-F', '-i'], rgArgs: ['-F', '-i'], targeted: true },
  { name: 'regex with literal', pattern: 'function\\s+\\w+Sync', ignoreCase: false, fixedString: false, grepArgs: ['-E'], rgArgs: [], targeted: true },
  { name: 'Korean literal', pattern: '개인정보', ignoreCase: false, fixedString: true, grepArgs: ['-F'], rgArgs: ['-F'], targeted: true },
  { name: 'regex, no literal', pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', ignoreCase: false, fixedString: false, grepArgs: ['-E'], rgArgs: [], targeted: false },
];

/** Only if the host FileAccess is not there yet: the same walk contract over node:fs, unconfined. */
function fallbackSource(root: string): FileSource {
  async function* walk(dir: string): AsyncGenerator<WalkEntry> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) yield* walk(p);
      else if (e.isFile()) {
        const fh = await open(p, 'r');
        const size = (await fh.stat()).size;
        await fh.close();
        yield { path: p, size };
      }
    }
  }
  return {
    walk: (path) => walk(path === '.' ? root : join(root, path)),
    async readBytes(path, options) {
      const fh = await open(path, 'r');
      try {
        const size = (await fh.stat()).size;
        const offset = options?.offset ?? 0;
        const want = Math.min(Math.max(0, size - offset), options?.maxBytes ?? size);
        const buffer = Buffer.alloc(want);
        const { bytesRead } = await fh.read(buffer, 0, want, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    },
    display: (p) => relative(root, p),
  };
}

async function fileSource(corpus: Corpus, scratch: string): Promise<{ source: FileSource; kind: string }> {
  const modulePath = join(repoRoot, 'electron', 'main', 'host', 'files', 'index.ts');
  if (existsSync(modulePath)) {
    const host = (await import('../../electron/main/host/files')) as {
      createFileAccess(options: { roots: string[]; trashDir: string; protectedPaths: string[] }): Promise<FileAccess> | FileAccess;
    };
    const files = await host.createFileAccess({ roots: [corpus.root], trashDir: join(scratch, 'trash'), protectedPaths: [] });
    return { source: files, kind: 'host createFileAccess (confined walk and reads)' };
  }
  return { source: fallbackSource(corpus.root), kind: 'FALLBACK node:fs walk (host FileAccess not available yet)' };
}

interface Run {
  readonly ms: number;
  readonly count: number;
}

function runExternal(command: string, args: readonly string[], cwd: string): Run {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd, maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: 'C' } });
  const ms = performance.now() - start;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${command} failed (${String(r.status)}): ${r.stderr.toString()}`);
  let count = 0;
  for (const b of r.stdout) if (b === 0x0a) count++;
  return { ms, count };
}

function grepArgs(c: Case, pattern: string, where: string): string[] {
  return ['-r', '-n', '-I', ...c.grepArgs, '-e', pattern, where];
}

function rgArgs(c: Case, where: string): string[] {
  return ['-n', '--no-config', ...c.rgArgs, '-e', c.pattern, where];
}

async function ours(source: FileSource, c: Case, maxResults: number, maxChars: number): Promise<SearchReport> {
  const compiled = compileQuery({ pattern: c.pattern, ignoreCase: c.ignoreCase, fixedString: c.fixedString });
  if (!compiled.ok) throw new Error(compiled.message);
  return searchFiles(source, { path: '.', query: compiled.query, include: null, maxResults, maxChars, signal: new AbortController().signal });
}

async function measure(label: string, reps: number, fn: () => Run | Promise<Run>): Promise<Run> {
  let count = 0;
  const times = await timeRuns(reps, async () => {
    count = (await fn()).count;
  });
  const ms = median(times);
  process.stdout.write(`  ${label.padEnd(28)} ${formatMs(ms).padStart(9)}  (runs: ${times.map((t) => t.toFixed(0)).join(', ')})\n`);
  return { ms, count };
}

async function main(): Promise<void> {
  const hasRg = existsSync('/usr/bin/rg');
  const corpus = await ensureCorpus(join(repoRoot, 'node_modules'));
  const scratch = await mkdtemp(join(tmpdir(), 'baram-search-bench-'));
  const { source, kind } = await fileSource(corpus, scratch);
  const grepVersion = spawnSync('grep', ['--version']).stdout.toString().split('\n')[0];
  const rgVersion = hasRg ? spawnSync('rg', ['--version']).stdout.toString().split('\n')[0] : 'not installed';
  console.log(`corpus: ${corpus.root}  ${corpus.files} files, ${formatBytes(corpus.bytes)}`);
  console.log(`machine: ${cpus().length} cores, Node ${process.version}; ${grepVersion}; ${rgVersion}`);
  console.log(`ours: ${kind}`);
  console.log(`median of ${REPETITIONS} runs after 1 warm-up, all tools on a warm page cache\n`);

  const rows: string[][] = [];
  const checks: string[] = [];
  const counts: string[] = [];
  for (const c of CASES) {
    console.log(`${c.name}: ${c.pattern}${c.ignoreCase ? ' (ignoreCase)' : ''}`);
    const full = await measure('ours (all matches)', REPETITIONS, async () => ({ ms: 0, count: (await ours(source, c, Number.MAX_SAFE_INTEGER, Infinity)).lines.length }));
    const capped = await measure('ours (tool default, 200)', REPETITIONS, async () => ({ ms: 0, count: (await ours(source, c, 200, 29_200)).lines.length }));
    const grep = await measure('grep -rnI', REPETITIONS, () => runExternal('grep', grepArgs(c, c.pattern, '.'), corpus.root));
    const rg = hasRg ? await measure('rg -n', REPETITIONS, () => runExternal('rg', rgArgs(c, '.'), corpus.root)) : null;
    rows.push([
      c.name,
      formatMs(full.ms),
      formatMs(capped.ms),
      formatMs(grep.ms),
      rg ? formatMs(rg.ms) : '—',
      (full.ms / grep.ms).toFixed(2),
      rg ? (full.ms / rg.ms).toFixed(2) : '—',
      `${full.count} / ${grep.count} / ${rg ? rg.count : '—'}`,
    ]);
    if (c.targeted) {
      checks.push(`${c.name}: ${ratioLine({ label: 'ours/grep', ours: full.ms, theirs: grep.ms, maxRatio: TARGET_VS_GREP })}`);
      if (rg) checks.push(`${c.name}: ${ratioLine({ label: 'ours/rg', ours: full.ms, theirs: rg.ms, maxRatio: TARGET_VS_RG })}`);
    }

    // Count check. grep sees neither CP949 text (bytes differ from the UTF-8 pattern) nor UTF-16
    // (NUL bytes: binary to -I); rg decodes UTF-16 (BOM) but not CP949. Measure both parts.
    const cp949Pattern = iconv.encode(c.pattern, 'cp949');
    const sameBytes = Buffer.from(c.pattern).equals(cp949Pattern);
    const cp949Hits = sameBytes ? 0 : await grepRawPattern(c, cp949Pattern, corpus.cp949Dir, corpus.root, scratch);
    const utf16Hits = hasRg ? runExternal('rg', rgArgs(c, corpus.utf16Dir), corpus.root).count : Number.NaN;
    const expectGrep = grep.count + cp949Hits + utf16Hits;
    const expectRg = rg ? rg.count + cp949Hits : Number.NaN;
    counts.push(
      `${c.name}: ours ${full.count}; grep ${grep.count} + CP949 ${cp949Hits} + UTF-16 ${utf16Hits} = ${expectGrep}` +
        (rg ? `; rg ${rg.count} + CP949 ${cp949Hits} = ${expectRg}` : '') +
        ` → ${full.count === expectGrep && (!rg || full.count === expectRg) ? 'agree' : 'DIFFER'}`,
    );
    console.log('');
  }
  console.log(table(['pattern', 'ours all', 'ours ≤200', 'grep', 'rg', 'ours/grep', 'ours/rg', 'lines ours/grep/rg'], rows));
  console.log('');
  for (const line of checks) console.log(line);
  console.log('');
  for (const line of counts) console.log(line);
  await rm(scratch, { recursive: true, force: true });
}

/**
 * grep -c-style count with a pattern in raw bytes (the CP949 form). argv strings reach the child
 * as UTF-8, so the bytes go through a pattern file (-f).
 */
async function grepRawPattern(c: Case, patternBytes: Uint8Array, where: string, cwd: string, scratch: string): Promise<number> {
  const file = join(scratch, 'pattern.bin');
  await writeFile(file, patternBytes);
  const r = spawnSync('grep', ['-r', '-n', '-I', ...c.grepArgs, '-f', file, where], { cwd, maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: 'C' } });
  let count = 0;
  for (const b of r.stdout) if (b === 0x0a) count++;
  return count;
}

await main();
