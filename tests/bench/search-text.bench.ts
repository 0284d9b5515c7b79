import { isAscii, isUtf8 } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import iconv from 'iconv-lite';
import type { ReadTreeOptions, TreeFile } from '../../electron/common/file-access';
import { createFileAccess } from '../../electron/main/host/files';
import { proveByIdentity } from '../../electron/main/host/files/open-verified';
import { compileQuery } from '../../tools/search/engine/query';
import { WINDOW_BYTES } from '../../tools/search/engine/file-kind';
import { searchFiles, type FileSource, type SearchReport } from '../../tools/search/engine/search-files';
import { formatBytes, formatMs, median, ratioLine, table } from './lib/stats';
import { ensureCorpus, type Corpus } from './search-text-corpus';

/**
 * search.text against grep -rn (and ripgrep, where it is installed) on the same ≥ 50 MB corpus, in
 * the same run. Ours = the tool's engine (searchFiles, what search.text's execute runs) reading
 * through the real host FileAccess: readTree, a confined walk with every file opened by path and
 * proven before it is read, on the calling thread in time slices (node:fs only, the same path on
 * every platform; readBytes past the first 8 MiB of a file), with no result cap so every match is
 * produced, as grep -rn produces them. The per-file proof is measured both ways: the kernel's name
 * for the descriptor (Linux) and realpath + identity, which is what Windows (and macOS) run.
 * Target (issue 13): ours ≤ 3x grep -rn, for each targeted pattern and both proofs.
 * grep runs with LC_ALL=C (its fastest configuration: no multibyte decoding) and -I (skip
 * binaries, as we do). The corpus has no hidden and no ignore files, so the tools see the same
 * files; the remaining count differences are the encodings grep does not decode, and the run
 * checks them.
 *
 *   npx tsx tests/bench/search-text.bench.ts [repetitions]
 */
const REPETITIONS = Number(process.argv[2] ?? 5);
/** Rounds before measuring, each printed: an app that has searched before runs optimised code. */
const WARMUP_ROUNDS = 3;
const TARGET_VS_GREP = 3;
const repoRoot = join(import.meta.dirname, '..', '..');

interface Case {
  readonly name: string;
  readonly pattern: string;
  readonly ignoreCase: boolean;
  readonly fixedString: boolean;
  /** Same search for grep (-E or -F) and rg. */
  readonly grepArgs: readonly string[];
  readonly rgArgs: readonly string[];
  /** Whether the speed target applies (the last case is shown for information). */
  readonly targeted: boolean;
}

const CASES: readonly Case[] = [
  { name: 'literal word', pattern: 'readFileSync', ignoreCase: false, fixedString: true, grepArgs: ['-F'], rgArgs: ['-F'], targeted: true },
  { name: 'literal, ignoreCase', pattern: 'deprecated', ignoreCase: true, fixedString: true, grepArgs: ['-F', '-i'], rgArgs: ['-F', '-i'], targeted: true },
  { name: 'regex with literal', pattern: 'function\\s+\\w+Sync', ignoreCase: false, fixedString: false, grepArgs: ['-E'], rgArgs: [], targeted: true },
  { name: 'Korean literal', pattern: '개인정보', ignoreCase: false, fixedString: true, grepArgs: ['-F'], rgArgs: ['-F'], targeted: true },
  { name: 'regex, no literal', pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', ignoreCase: false, fixedString: false, grepArgs: ['-E'], rgArgs: [], targeted: false },
];

/**
 * The same readTree contract over plain async node:fs, unconfined and as lean as the API allows
 * (readdir with types, no stat per file, fs.readFile with 32 reads in flight): a comparison row
 * showing what Node's async file API costs by itself, apart from confinement.
 */
function fallbackSource(root: string): FileSource {
  async function* walk(dir: string): AsyncGenerator<string> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) yield* walk(p);
      else if (e.isFile()) yield p;
    }
  }
  async function readWindow(path: string, windowBytes: number): Promise<TreeFile> {
    const whole = await readFile(path);
    const bytes = whole.subarray(0, windowBytes);
    return { ok: true, path, size: whole.length, bytes, complete: whole.length <= windowBytes, utf8: isUtf8(bytes), ascii: isAscii(bytes) };
  }
  async function* readTree(path: string, options: ReadTreeOptions): AsyncGenerator<TreeFile> {
    const pending: Promise<TreeFile>[] = [];
    for await (const file of walk(path === '.' ? root : join(root, path))) {
      if (options.include !== undefined && !options.include(file)) continue;
      pending.push(readWindow(file, options.windowBytes));
      if (pending.length >= 32) yield await (pending.shift() as Promise<TreeFile>);
    }
    for (const p of pending) yield await p;
  }
  return {
    readTree,
    async readBytes(path, options) {
      const fh = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(options?.maxBytes ?? WINDOW_BYTES);
        const { bytesRead } = await fh.read(buffer, 0, buffer.length, options?.offset ?? 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await fh.close();
      }
    },
    display: (p) => relative(root, p),
  };
}

async function hostSource(corpus: Corpus, scratch: string): Promise<FileSource> {
  return createFileAccess({ roots: [corpus.root], trashDir: join(scratch, 'trash'), protectedPaths: [] });
}

interface Sample {
  readonly wallMs: number;
  /** User + system CPU of the whole process (all threads), ms. */
  readonly cpuMs: number;
  readonly count: number;
}

/** Runs grep/rg under /usr/bin/time for its CPU time; counts output lines. */
function runExternal(command: string, args: readonly string[], cwd: string): Sample {
  const start = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...args], { cwd, maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: 'C' } });
  const wallMs = performance.now() - start;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${command} failed (${String(r.status)}): ${r.stderr.toString()}`);
  const times = r.stderr.toString().trim().split('\n').pop()?.split(' ').map(Number) ?? [];
  let count = 0;
  for (const b of r.stdout) if (b === 0x0a) count++;
  return { wallMs, cpuMs: ((times[0] ?? Number.NaN) + (times[1] ?? Number.NaN)) * 1000, count };
}

async function runOurs(fn: () => Promise<number>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const count = await fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, count };
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

/** The corpus preloaded into memory behind the same interface: the engine's cost without I/O. */
async function inMemory(source: FileSource): Promise<FileSource> {
  const files: TreeFile[] = [];
  const data = new Map<string, Uint8Array>();
  for await (const file of source.readTree('.', { respectIgnoreFiles: true, includeHidden: false, windowBytes: WINDOW_BYTES })) {
    files.push(file);
    if (!file.ok) continue;
    const chunks: Uint8Array[] = [Uint8Array.from(file.bytes)];
    for (let offset = file.bytes.length; !file.complete && offset < file.size; ) {
      const part = await source.readBytes(file.path, { offset, maxBytes: WINDOW_BYTES });
      chunks.push(part);
      offset += part.length;
      if (part.length < WINDOW_BYTES) break;
    }
    data.set(file.path, Buffer.concat(chunks));
  }
  return {
    async *readTree(_path, options) {
      for (const file of files) {
        if (!file.ok) yield file;
        else if (options.include === undefined || options.include(file.path)) {
          const bytes = data.get(file.path) as Uint8Array;
          yield { ok: true, path: file.path, size: file.size, complete: file.complete, utf8: file.utf8, ascii: file.ascii, bytes: bytes.subarray(0, options.windowBytes) };
        }
      }
    },
    async readBytes(path, options) {
      const bytes = data.get(path) as Uint8Array;
      const offset = options?.offset ?? 0;
      return bytes.subarray(offset, offset + (options?.maxBytes ?? bytes.length));
    },
    display: (p) => source.display(p),
  };
}

/** Walks and reads every file (first windows), as the search does, without scanning; returns the count. */
async function readAll(source: FileSource): Promise<number> {
  let files = 0;
  const options = { respectIgnoreFiles: true, includeHidden: false, windowBytes: WINDOW_BYTES };
  for await (const file of source.readTree('.', options)) if (file.ok) files++;
  return files;
}

/** A full collection now, so that garbage of a diagnostic round is not collected inside a measured one. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

interface Series {
  readonly wall: number[];
  readonly cpu: number[];
  count: number;
}

function series(): Series {
  return { wall: [], cpu: [], count: 0 };
}

function add(s: Series, sample: Sample): void {
  s.wall.push(sample.wallMs);
  s.cpu.push(sample.cpuMs);
  s.count = sample.count;
}

function show(label: string, s: Series): void {
  console.log(
    `  ${label.padEnd(26)} wall ${formatMs(median(s.wall)).padStart(8)}  cpu ${formatMs(median(s.cpu)).padStart(8)}  ` +
      `(wall runs: ${s.wall.map((t) => t.toFixed(0)).join(', ')})`,
  );
}

/** Runs `fn` with each file proven by realpath + identity (as on Windows) or by the platform's proof. */
async function withProof<T>(identity: boolean, fn: () => Promise<T>): Promise<T> {
  proveByIdentity(identity);
  try {
    return await fn();
  } finally {
    proveByIdentity(false);
  }
}

function hasProgram(name: string): boolean {
  return spawnSync(name, ['--version']).status === 0;
}

async function main(): Promise<void> {
  const hasRg = hasProgram('rg');
  const corpus = await ensureCorpus(join(repoRoot, 'node_modules'));
  const scratch = await mkdtemp(join(tmpdir(), 'baram-search-bench-'));
  const source = await hostSource(corpus, scratch);
  const plain = fallbackSource(corpus.root);
  const grepVersion = spawnSync('grep', ['--version']).stdout.toString().split('\n')[0];
  const rgVersion = hasRg ? spawnSync('rg', ['--version']).stdout.toString().split('\n')[0] : 'not installed (no rg rows)';
  const platformProof = process.platform === 'linux' ? 'readlink of /proc/self/fd' : 'realpath + identity';
  console.log(`corpus: ${corpus.root}  ${corpus.files} files, ${formatBytes(corpus.bytes)}`);
  console.log(`machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; Node ${process.version}; ${grepVersion}; ${rgVersion}`);
  console.log(`ours: host createFileAccess, readTree on the calling thread (node:fs, per-file proof: ${platformProof}; "Windows proof" rows: realpath + identity)`);
  console.log(
    `${REPETITIONS} interleaved rounds (ours, ours with the Windows proof, grep${hasRg ? ', rg' : ''} in turn) after ${WARMUP_ROUNDS} warm-up rounds; ` +
      `medians; warm page cache; the diagnostic rows (≤200, in memory, plain fs) in rounds of their own\n`,
  );

  // Pattern-independent part: what the walk and the confined reads alone cost.
  const io = series();
  const ioIdentity = series();
  const ioPlain = series();
  for (let round = 0; round < WARMUP_ROUNDS + REPETITIONS; round++) {
    const host = await runOurs(() => readAll(source));
    const identity = await withProof(true, () => runOurs(() => readAll(source)));
    const lean = await runOurs(() => readAll(plain));
    if (round < WARMUP_ROUNDS) continue;
    add(io, host);
    add(ioIdentity, identity);
    add(ioPlain, lean);
  }
  console.log('walk + read only (readTree, no scan):');
  show('host FileAccess', io);
  show('host, Windows proof', ioIdentity);
  show('plain node:fs, unconfined', ioPlain);
  console.log('');

  const rows: string[][] = [];
  const checks: string[] = [];
  const counts: string[] = [];
  let missed = 0;
  for (const c of CASES) {
    console.log(`${c.name}: ${c.pattern}${c.ignoreCase ? ' (ignoreCase)' : ''}`);
    const full = series();
    const windows = series();
    const capped = series();
    const engine = series();
    const plainFs = series();
    const grep = series();
    const rg = series();
    const warmUp: number[] = [];
    // The compared ones, interleaved so machine noise hits them alike.
    for (let round = 0; round < WARMUP_ROUNDS + REPETITIONS; round++) {
      const all = async (): Promise<number> => (await ours(source, c, Number.MAX_SAFE_INTEGER, Infinity)).lines.length;
      const mine = await runOurs(all);
      const identity = await withProof(true, () => runOurs(all));
      const theirs = runExternal('grep', grepArgs(c, c.pattern, '.'), corpus.root);
      const rgSample = hasRg ? runExternal('rg', rgArgs(c, '.'), corpus.root) : null;
      if (round < WARMUP_ROUNDS) {
        warmUp.push(mine.wallMs);
        continue;
      }
      add(full, mine);
      add(windows, identity);
      add(grep, theirs);
      if (rgSample) add(rg, rgSample);
    }
    // The diagnostic rows in rounds of their own. The in-memory copy of the corpus (~110 MB of
    // buffers) exists only for these rounds: held through the measured ones, it made every search
    // of this process pay for it (V8 collects more often with that much external memory).
    let memory: FileSource | null = await inMemory(source);
    for (let round = 0; round <= REPETITIONS; round++) {
      const samples = [
        await runOurs(async () => (await ours(source, c, 200, 29_200)).lines.length),
        await runOurs(async () => (await ours(memory as FileSource, c, Number.MAX_SAFE_INTEGER, Infinity)).lines.length),
        await runOurs(async () => (await ours(plain, c, Number.MAX_SAFE_INTEGER, Infinity)).lines.length),
      ];
      if (round === 0) continue;
      add(capped, samples[0] as Sample);
      add(engine, samples[1] as Sample);
      add(plainFs, samples[2] as Sample);
    }
    memory = null;
    collectGarbage();
    console.log(`  ours, warm-up rounds       ${warmUp.map((t) => t.toFixed(0)).join(', ')} ms`);
    show('ours (all matches)', full);
    show('ours, Windows proof', windows);
    show('ours (tool default ≤200)', capped);
    show('ours engine, in memory', engine);
    show('ours over plain node:fs', plainFs);
    show('grep -rnI', grep);
    if (hasRg) show('rg -n', rg);
    const m = (s: Series): number => median(s.wall);
    rows.push([
      c.name,
      formatMs(m(full)),
      formatMs(m(windows)),
      formatMs(m(capped)),
      formatMs(m(engine)),
      formatMs(m(grep)),
      hasRg ? formatMs(m(rg)) : '—',
      (m(full) / m(grep)).toFixed(2),
      (m(windows) / m(grep)).toFixed(2),
      hasRg ? (m(full) / m(rg)).toFixed(2) : '—',
      `${full.count} / ${grep.count}${hasRg ? ` / ${rg.count}` : ''}`,
    ]);
    if (c.targeted) {
      for (const [label, s] of [['ours/grep', full], ['ours (Windows proof)/grep', windows]] as const) {
        const line = ratioLine({ label, ours: m(s), theirs: m(grep), maxRatio: TARGET_VS_GREP });
        if (line.endsWith('NOT MET')) missed++;
        checks.push(`${c.name}: target ${line}`);
      }
      checks.push(
        `${c.name}: cpu ours ${formatMs(median(full.cpu))} (Windows proof ${formatMs(median(windows.cpu))}), grep ${formatMs(median(grep.cpu))}` +
          `${hasRg ? `, rg ${formatMs(median(rg.cpu))}` : ''}: cpu ours/grep = ${(median(full.cpu) / median(grep.cpu)).toFixed(2)}, Windows proof ${(median(windows.cpu) / median(grep.cpu)).toFixed(2)}`,
      );
    } else {
      checks.push(`${c.name}: (no target) ours/grep = ${(m(full) / m(grep)).toFixed(2)}, Windows proof ${(m(windows) / m(grep)).toFixed(2)}`);
    }

    // Count check. grep sees neither CP949 text (bytes differ from the UTF-8 pattern) nor UTF-16
    // (NUL bytes: binary to -I). Measure both parts (UTF-16 with a decoding grep of our own: the
    // corpus's UTF-16 files are small, decoded whole).
    const cp949Pattern = iconv.encode(c.pattern, 'cp949');
    const sameBytes = Buffer.from(c.pattern).equals(cp949Pattern);
    const cp949Hits = sameBytes ? 0 : await grepRawPattern(c, cp949Pattern, corpus.cp949Dir, corpus.root, scratch);
    const utf16Hits = await utf16Count(c, join(corpus.root, corpus.utf16Dir));
    const expectGrep = grep.count + cp949Hits + utf16Hits;
    counts.push(
      `${c.name}: ours ${full.count} (Windows proof ${windows.count}); grep ${grep.count} + CP949 ${cp949Hits} + UTF-16 ${utf16Hits} = ${expectGrep}` +
        ` → ${full.count === expectGrep && windows.count === full.count ? 'agree' : 'DIFFER'}`,
    );
    console.log('');
  }
  console.log(
    table(['pattern', 'ours all', 'ours, Win proof', 'ours ≤200', 'engine mem', 'grep', 'rg', 'ours/grep', 'Win proof/grep', 'ours/rg', 'lines ours/grep' + (hasRg ? '/rg' : '')], rows),
  );
  console.log('');
  for (const line of checks) console.log(line);
  console.log('');
  for (const line of counts) console.log(line);
  console.log(`\nsearch.text ≤ ${TARGET_VS_GREP}x grep -rn: ${missed === 0 ? 'MET' : `NOT MET (${missed} check(s))`}`);
  await rm(scratch, { recursive: true, force: true });
}

/** Lines matching the case in the UTF-16 files (decoded), which grep -I takes for binaries. */
async function utf16Count(c: Case, dir: string): Promise<number> {
  const compiled = compileQuery({ pattern: c.pattern, ignoreCase: c.ignoreCase, fixedString: c.fixedString });
  if (!compiled.ok) throw new Error(compiled.message);
  let count = 0;
  for (const name of await readdir(dir)) {
    const text = iconv.decode(await readFile(join(dir, name)), 'utf16le').replace(/^\ufeff/, '');
    for (const line of text.split(/\r?\n/)) if (compiled.query.match(line, false) !== null) count++;
  }
  return count;
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
