import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { checkSegmentIndexes, parseVerificationKey, readLedgerRows, sealKeyPath, verifyLedger } from '../../electron/main/audit';
import { AuditLedger } from '../../electron/main/audit/writer';
import { epochOf, EPOCH_MS } from '../../electron/main/audit/ledger/epochs';
import { readSealEvent, SEAL_EVENT, type LedgerRow } from '../../electron/main/audit/ledger/rows';
import { SealKeyFile, type SealKey } from '../../electron/main/audit/ledger/seal-key';
import { listSegments, openSegmentReader } from '../../electron/main/audit/ledger/segments';
import { markerOf, toolProposedEvent } from './gate-audit-events';
import { prng } from './prng';

/**
 * The audit ledger's crash test (issue #3), shared by tests/security/audit-crash.test.ts (200 rounds
 * in CI) and tests/bench/audit-crash.bench.ts (1,000 rounds):
 *
 *   a child process appends events in a loop and is killed with SIGKILL at random moments; every
 *   event the child reported as committed must be present, `verify` must pass, and
 *   `PRAGMA integrity_check` must say ok.
 *
 * One ledger folder lives through all rounds, so every round also reopens a ledger the previous
 * round left mid-write. Kills land before and during `open`, in the first append and mid-stream;
 * the child's clock crosses UTC days and months, so seal rows, the key file's evolution (the window
 * between committing a seal row and overwriting the key) and new segment files are killed mid-way
 * too. Time never runs backwards across rounds: each round starts after the latest time any earlier
 * child could have written. Checked after every round: each `committed` line's row is there with
 * its marker, no other row appeared but seals and at most the one interrupted append, and the key
 * file is never ahead of the rows; every `verifyEvery` rounds and at the end, verify with the
 * verification key and integrity_check of every segment.
 */

export interface CrashLoopOptions {
  readonly rounds: number;
  /** PRNG seed for kill delays and clock plans: a failing run can be replayed exactly. */
  readonly seed?: number;
  /** Full verify (with the key) and integrity_check every this many rounds, and after the last. */
  readonly verifyEvery?: number;
  /** Progress lines (the benchmark prints them; the test stays quiet). */
  readonly log?: (line: string) => void;
}

/**
 * Where the child was when the kill landed, from the last line it wrote: before `open`, inside it,
 * open but before the first append, inside an append (between `begin` and `committed`), or between
 * two appends.
 */
export type KillPhase = 'before-open' | 'open' | 'after-open' | 'append' | 'between-appends';

export interface CrashLoopReport {
  readonly seed: number;
  readonly rounds: number;
  /** `committed` lines the children wrote; each was checked against the ledger. */
  readonly committed: number;
  readonly rows: number;
  readonly sealRows: number;
  readonly segments: number;
  readonly kills: Readonly<Record<KillPhase, number>>;
  /** Kills inside the first append of a freshly opened ledger. */
  readonly killsInFirstAppend: number;
  /** Kills inside an append that crossed a day, i.e. that wrote a seal row and evolved the key. */
  readonly killsInSealingAppend: number;
  /**
   * Interrupted appends whose row was committed anyway (allowed, as it was never reported). Common:
   * a process blocked in fsync receives SIGKILL only when fsync returns, i.e. after the commit.
   */
  readonly landedUnreported: number;
  /** Rounds that ended after a seal row committed but before the key file moved (next open repairs it). */
  readonly keyFileBehindSeal: number;
  readonly verifications: number;
  readonly integrityChecks: number;
  /** Rows in viewer_rows at the end (the children fill it every 8 seqs): the index checks compared them. */
  readonly viewerRows: number;
  readonly elapsedMs: number;
  /** Of elapsedMs: waiting for children (start-up not overlapped, open, appends until the kill). */
  readonly childMs: number;
  /** Empty when every check held; otherwise what failed first (the loop stops there). */
  readonly problems: readonly string[];
}

const FIXTURE = fileURLToPath(new URL('../fixtures/audit/append-forever.ts', import.meta.url));
/** 2026-11-27 09:00 UTC: a few days before a month boundary. */
const START_MS = Date.UTC(2026, 10, 27, 9, 0, 0);
const HOUR_MS = 3_600_000;
/**
 * Children started ahead of their rounds, so node's start-up overlaps earlier rounds. Measured on
 * the 2-core machine: a round took 0.35 s with no child ahead, ~0.17 s with one or two ahead (the
 * start-ups then use the cores fully; a third only competes with the running child for CPU).
 */
const WARM_CHILDREN = 2;
/** A child that never reaches its kill trigger (it hung or the pipe broke) is killed after this. */
const WATCHDOG_MS = 20_000;
const IDENTITY = { sessionId: 'crash-parent', osUser: 'kim.minsu', appUser: '김민수', hostId: 'PC-101' };

/**
 * Bundles the child into one .mjs file. Under `node --import tsx` every child spends ~0.85 s
 * starting (measured on the 2-core machine: tsx starts esbuild and transforms each module), which
 * would make 200 rounds take minutes; the bundle starts in ~0.15 s and runs the very same ledger
 * code. better-sqlite3 stays external: it loads its native addon relative to its own package.
 */
export async function bundleAppendForever(outDir: string): Promise<string> {
  const outfile = join(outDir, 'append-forever.mjs');
  const sqlite = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
  await build({
    entryPoints: [FIXTURE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [{ name: 'native-sqlite', setup: (b) => void b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
  return outfile;
}

type Trigger = 'go' | 'opening' | 'ready';

interface RoundPlan {
  readonly startMs: number;
  readonly stepMs: number;
  readonly killAfter: Trigger;
  readonly killDelayMs: number;
}

/**
 * Clock and kill for one round. Clock: mostly a few ms per append within a day; sometimes the day
 * ends a few appends in, or the first append is already in a new day (a seal row in the very
 * transaction the kill may hit), or every few appends cross a day (8 h steps: a seal row and a key
 * file write every third append). Kill: before or during open, in the first append, or mid-stream.
 */
function planRound(rand: () => number, floorMs: number): RoundPlan {
  const nextDayMs = (Math.floor(floorMs / EPOCH_MS) + 1) * EPOCH_MS;
  const clock = rand();
  let startMs: number;
  let stepMs: number;
  let sealEveryFew = false;
  if (clock < 0.6) {
    startMs = floorMs + 1 + Math.floor(rand() * 1000);
    stepMs = 1 + Math.floor(rand() * 20);
  } else if (clock < 0.75) {
    stepMs = 1000;
    startMs = Math.max(floorMs + 1, nextDayMs - Math.floor(rand() * 30) * stepMs);
  } else if (clock < 0.88) {
    startMs = nextDayMs + Math.floor(rand() * 1000);
    stepMs = 1 + Math.floor(rand() * 20);
  } else {
    startMs = floorMs + 1;
    stepMs = 8 * HOUR_MS;
    sealEveryFew = true;
  }
  const kill = rand();
  // Stream length is capped in 8 h-step rounds so that 1,000 rounds span years, not decades.
  const streamMs = sealEveryFew ? 40 : 150;
  const [killAfter, killDelayMs]: [Trigger, number] =
    kill < 0.1 ? ['go', rand() * 25] : kill < 0.22 ? ['opening', rand() * 3] : kill < 0.42 ? ['ready', rand() * 3] : ['ready', rand() * streamMs];
  return { startMs, stepMs, killAfter, killDelayMs: Math.floor(killDelayMs) };
}

interface ChildRun {
  readonly lines: readonly string[];
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly watchdogFired: boolean;
}

/**
 * One child process, started ahead of its round: node's start-up (0.15–0.3 s here, most of a round)
 * overlaps the previous round. It touches nothing until `run` sends its parameters.
 */
class AppendingChild {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private stderr = '';
  private trigger: Trigger | undefined;
  private killDelayMs = 0;
  private watchdogFired = false;
  private watchdog: NodeJS.Timeout | undefined;
  private readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(bundle: string, dir: string) {
    // Without the parent's NODE_OPTIONS: a test runner's loader hooks would slow every start-up.
    this.child = spawn(process.execPath, [bundle, dir], { env: { ...process.env, NODE_OPTIONS: '' } });
    let partial = '';
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      // A line cut by the kill was never completely written: not a report.
      partial = parts.pop() ?? '';
      for (const line of parts) {
        this.lines.push(line);
        if (line === this.trigger) this.arm();
      }
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    // A child that died before its round makes writing to stdin fail; `run` reports how it ended.
    this.child.stdin.on('error', () => undefined);
    this.closed = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) => resolve({ code, signal }));
    });
  }

  async run(round: number, plan: RoundPlan): Promise<ChildRun> {
    this.trigger = plan.killAfter;
    this.killDelayMs = plan.killDelayMs;
    this.watchdog = setTimeout(() => {
      this.watchdogFired = true;
      this.kill();
    }, WATCHDOG_MS);
    this.child.stdin.write(`${round} ${plan.startMs} ${plan.stepMs}\n`);
    if (plan.killAfter === 'go') this.arm();
    const { code, signal } = await this.closed;
    clearTimeout(this.watchdog);
    return { lines: this.lines, code, signal, stderr: this.stderr, watchdogFired: this.watchdogFired };
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  private arm(): void {
    const delay = this.killDelayMs;
    this.trigger = undefined;
    if (delay === 0) this.kill();
    else setTimeout(() => this.kill(), delay);
  }
}

interface Begun {
  readonly i: number;
  readonly timeMs: number;
  readonly marker: string;
}

/** What the child said: appends begun, appends reported committed (seq → marker). */
function parseChildLines(lines: readonly string[]): { opening: boolean; ready: boolean; begun: Begun[]; committed: Map<number, string>; malformed: string[] } {
  const begun: Begun[] = [];
  const committed = new Map<number, string>();
  const malformed: string[] = [];
  let opening = false;
  let ready = false;
  for (const line of lines) {
    const [word, a, b, c] = line.split(' ');
    if (line === 'opening') opening = true;
    else if (line === 'ready') ready = true;
    else if (word === 'begin' && c !== undefined) begun.push({ i: Number(a), timeMs: Number(b), marker: c });
    else if (word === 'committed' && b !== undefined) committed.set(Number(a), b);
    else malformed.push(line);
  }
  return { opening, ready, begun, committed, malformed };
}

interface Tail {
  readonly seq: number;
  readonly epoch: number;
  /** The epoch the key file must have reached: the row's own, or the next one its seal names. */
  readonly keyEpochNeeded: number;
}

function tailAt(row: LedgerRow): Tail {
  return { seq: row.seq, epoch: row.epoch, keyEpochNeeded: Math.max(row.epoch, readSealEvent(row.body)?.nextEpoch ?? 0) };
}

function tailOf(dir: string, fromSeq: number, previous: Tail): Tail {
  let tail = previous;
  for (const row of readLedgerRows(dir, fromSeq)) tail = tailAt(row);
  return tail;
}

function keyFileEpoch(dir: string): number {
  const file = SealKeyFile.read(sealKeyPath(dir));
  const epoch = file.key.epoch;
  file.erase();
  return epoch;
}

/** The folder as a failure message shows it: each segment's size, schema version and tables. */
function describeFolder(dir: string): string {
  const parts = readdirSync(dir).sort().map((name) => {
    const file = join(dir, name);
    const size = statSync(file).size;
    if (!name.endsWith('.sqlite3')) return `${name} (${size} B)`;
    let db: ReturnType<typeof openSegmentReader> | null = null;
    try {
      db = openSegmentReader(file);
      const version = db.pragma('user_version', { simple: true }) as number;
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name);
      return `${name} (${size} B, user_version ${version}, tables [${tables.join(', ')}])`;
    } catch (error) {
      // The description must not hide the failure it describes (a segment a reader cannot open is one).
      return `${name} (${size} B, unreadable: ${error instanceof Error ? error.message : String(error)})`;
    } finally {
      db?.close();
    }
  });
  return parts.join('; ');
}

function viewerRowsIn(dir: string): number {
  let rows = 0;
  for (const segment of listSegments(dir)) {
    const db = openSegmentReader(segment.file);
    try {
      rows += db.prepare('SELECT count(*) FROM viewer_rows').pluck().get() as number;
    } finally {
      db.close();
    }
  }
  return rows;
}

/** integrity_check of every segment, and viewer_rows against the bodies (what `baram audit verify` runs). */
function integrityProblems(dir: string): string[] {
  const problems: string[] = [];
  for (const segment of listSegments(dir)) {
    const check = checkSegmentIndexes(segment.file);
    if (!check.ok) problems.push(`index check of ${segment.file}: ${check.problems.join('; ')}`);
  }
  return problems;
}

function verifyProblems(dir: string, key: SealKey, expectedLastSeq: number): string[] {
  const verdict = verifyLedger(dir, { key });
  if (!verdict.ok) return [`verify failed at seq ${verdict.firstBadSeq}: ${verdict.reason} — ${verdict.detail}`];
  if (!verdict.macChecked) return ['verify did not check the seals although the key was given'];
  if (verdict.lastSeq !== expectedLastSeq || verdict.rows !== expectedLastSeq || verdict.firstSeq !== (expectedLastSeq > 0 ? 1 : 0)) {
    return [`verify saw rows ${verdict.firstSeq}–${verdict.lastSeq} (${verdict.rows} rows); the ledger's tail is seq ${expectedLastSeq}`];
  }
  return [];
}

/** The loop's state across rounds: one ledger folder, its verification key, and what was seen. */
class CrashLoop {
  private readonly problems: string[] = [];
  private readonly kills: Record<KillPhase, number> = { 'before-open': 0, open: 0, 'after-open': 0, append: 0, 'between-appends': 0 };
  private committed = 0;
  private sealRows = 0;
  private killsInFirstAppend = 0;
  private killsInSealingAppend = 0;
  private landedUnreported = 0;
  private keyFileBehindSeal = 0;
  private verifications = 0;
  private integrityChecks = 0;
  private rounds = 0;
  private childMs = 0;
  /** The latest time any child may have used: the next round starts after it. */
  private floorMs = START_MS;
  private tail: Tail;

  constructor(
    private readonly dir: string,
    private readonly key: SealKey,
    private readonly seed: number,
  ) {
    this.tail = { seq: 0, epoch: key.epoch, keyEpochNeeded: key.epoch };
  }

  get failed(): boolean {
    return this.problems.length > 0;
  }

  async round(round: number, child: AppendingChild, rand: () => number): Promise<void> {
    const plan = planRound(rand, this.floorMs);
    const childStarted = performance.now();
    const run = await child.run(round, plan);
    this.childMs += performance.now() - childStarted;
    this.rounds = round;
    const where = `round ${round} (seed ${this.seed}, start ${new Date(plan.startMs).toISOString()}, step ${plan.stepMs} ms, kill ${plan.killDelayMs} ms after '${plan.killAfter}')`;
    if (run.watchdogFired) this.problems.push(`${where}: the child never reached '${plan.killAfter}' within ${WATCHDOG_MS} ms. stderr: ${run.stderr}`);
    else if (run.signal !== 'SIGKILL') this.problems.push(`${where}: the child exited by itself (code ${run.code}) instead of being killed: the ledger could not be opened or written. stderr: ${run.stderr}`);
    const said = parseChildLines(run.lines);
    if (said.malformed.length > 0) this.problems.push(`${where}: unexpected child output ${JSON.stringify(said.malformed)}`);
    const lastBegun = said.begun.at(-1);
    this.floorMs = Math.max(this.floorMs, plan.startMs, lastBegun?.timeMs ?? 0);
    try {
      this.checkRound(where, said);
    } catch (error) {
      // Reading the ledger after a crash must give verdicts, not exceptions: an auditor runs verify right then.
      this.problems.push(`${where}: reading the ledger threw ${error instanceof Error ? error.message : String(error)}; folder: ${describeFolder(this.dir)}`);
    }
  }

  private checkRound(where: string, said: ReturnType<typeof parseChildLines>): void {
    // Where the kill landed, and whether the interrupted append had a seal row to write.
    const lastBegun = said.begun.at(-1);
    const reported = new Set(said.committed.values());
    const inFlight = lastBegun && !reported.has(lastBegun.marker) ? lastBegun : undefined;
    const phase: KillPhase = !said.opening ? 'before-open' : !said.ready ? 'open' : !lastBegun ? 'after-open' : inFlight ? 'append' : 'between-appends';
    this.kills[phase] += 1;
    if (inFlight) {
      if (inFlight.i === 0) this.killsInFirstAppend += 1;
      // The row before the interrupted append: this child's previous one, or the ledger's tail.
      const previous = said.begun.at(-2);
      const epochBefore = previous ? epochOf(new Date(previous.timeMs)) : this.tail.epoch;
      if (epochOf(new Date(inFlight.timeMs)) > epochBefore) this.killsInSealingAppend += 1;
    }

    // The rows this round added: the reported ones exactly, at most the interrupted one, and seals.
    const begun = new Set(said.begun.map((b) => b.marker));
    const found = new Map<number, string>();
    let tail = this.tail;
    for (const row of readLedgerRows(this.dir, this.tail.seq + 1)) {
      tail = tailAt(row);
      if (row.body.includes(`"type":"${SEAL_EVENT}"`)) {
        this.sealRows += 1;
        continue;
      }
      const marker = markerOf(row.body);
      if (marker === undefined || !begun.has(marker)) this.problems.push(`${where}: row ${row.seq} holds ${marker ?? 'no marker'}, which this round's child never appended`);
      else found.set(row.seq, marker);
    }
    for (const [seq, marker] of said.committed) {
      this.committed += 1;
      const stored = found.get(seq);
      if (stored !== marker) this.problems.push(`${where}: the child was told seq ${seq} (${marker}) was committed, but the ledger holds ${stored ?? 'no such row'}`);
    }
    const unreported = [...found].filter(([seq]) => !said.committed.has(seq));
    if (unreported.length > 1 || (unreported.length === 1 && unreported[0]?.[1] !== inFlight?.marker)) {
      this.problems.push(`${where}: rows ${JSON.stringify(unreported)} are in the ledger but were never reported, and are not the interrupted append`);
    } else if (unreported.length === 1) this.landedUnreported += 1;
    if (new Set(found.values()).size !== found.size) this.problems.push(`${where}: an event was stored twice`);

    // The key file may lag one committed seal (the crash window), and must never run ahead of the rows.
    this.tail = tail;
    const keyEpoch = keyFileEpoch(this.dir);
    if (keyEpoch > this.tail.keyEpochNeeded) {
      this.problems.push(`${where}: the key file is at epoch ${keyEpoch}, ahead of the last row (needs ${this.tail.keyEpochNeeded}): the next row could not be sealed verifiably`);
    }
    if (keyEpoch < this.tail.keyEpochNeeded) this.keyFileBehindSeal += 1;
  }

  /** verify with the key over the whole folder, and the index check of every segment. */
  fullCheck(): void {
    try {
      this.problems.push(...verifyProblems(this.dir, this.key, this.tail.seq));
      this.verifications += 1;
      this.problems.push(...integrityProblems(this.dir));
      this.integrityChecks += listSegments(this.dir).length;
    } catch (error) {
      this.problems.push(`after round ${this.rounds}: verify or integrity_check threw ${error instanceof Error ? error.message : String(error)}; folder: ${describeFolder(this.dir)}`);
    }
  }

  /** One more open after the last kill, as the app's next start would do, then the full check. */
  async reopenAfterLastCrash(): Promise<void> {
    try {
      const ledger = AuditLedger.open(this.dir, IDENTITY, { clock: () => new Date(this.floorMs + 1) });
      const seq = await ledger.append(toolProposedEvent('after-last-crash', 0));
      await ledger.close();
      this.tail = tailOf(this.dir, this.tail.seq + 1, this.tail);
      if (seq !== this.tail.seq) this.problems.push(`the append after the last crash got seq ${seq}, but the ledger ends at ${this.tail.seq}`);
    } catch (error) {
      this.problems.push(`reopening after the last crash threw ${error instanceof Error ? error.message : String(error)}; folder: ${describeFolder(this.dir)}`);
    }
    this.fullCheck();
  }

  progress(startedMs: number): string {
    return `round ${this.rounds}: ${this.tail.seq} rows, ${listSegments(this.dir).length} segments, ${((performance.now() - startedMs) / 1000).toFixed(1)} s`;
  }

  report(elapsedMs: number): CrashLoopReport {
    return {
      seed: this.seed,
      rounds: this.rounds,
      committed: this.committed,
      rows: this.tail.seq,
      sealRows: this.sealRows,
      segments: listSegments(this.dir).length,
      kills: { ...this.kills },
      killsInFirstAppend: this.killsInFirstAppend,
      killsInSealingAppend: this.killsInSealingAppend,
      landedUnreported: this.landedUnreported,
      keyFileBehindSeal: this.keyFileBehindSeal,
      verifications: this.verifications,
      integrityChecks: this.integrityChecks,
      viewerRows: viewerRowsIn(this.dir),
      elapsedMs,
      childMs: this.childMs,
      problems: [...this.problems],
    };
  }
}

/** Runs the crash loop in a fresh temp folder (removed afterwards) and reports what it saw. */
export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopReport> {
  const seed = options.seed ?? 20261203;
  const verifyEvery = Math.max(1, options.verifyEvery ?? 20);
  const rand = prng(seed);
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'baram-audit-crash-'));
  const dir = join(work, 'audit');
  let key: SealKey | undefined;
  const warm: AppendingChild[] = [];
  try {
    const bundle = await bundleAppendForever(work);
    // The parent creates the ledger once to learn the verification key security staff would keep.
    const created = AuditLedger.open(dir, IDENTITY, { clock: () => new Date(START_MS) });
    key = parseVerificationKey(created.takeInitialKey() ?? '');
    await created.close();
    const loop = new CrashLoop(dir, key, seed);
    const refill = (): void => {
      while (warm.length < WARM_CHILDREN) warm.push(new AppendingChild(bundle, dir));
    };
    refill();
    for (let round = 1; round <= options.rounds && !loop.failed; round++) {
      const child = warm.shift() as AppendingChild;
      refill();
      await loop.round(round, child, rand);
      if (!loop.failed && (round % verifyEvery === 0 || round === options.rounds)) loop.fullCheck();
      if (options.log && round % 100 === 0) options.log(`  ${loop.progress(started)}`);
    }
    if (!loop.failed) await loop.reopenAfterLastCrash();
    return loop.report(performance.now() - started);
  } finally {
    for (const child of warm) child.kill();
    key?.key.fill(0);
    rmSync(work, { recursive: true, force: true });
  }
}
