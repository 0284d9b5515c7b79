import type { AuditEventInput } from '../../electron/common/audit-events';
import { ACTION_CLASS_OF_RISK, type Decision, type Outcome, type Risk } from '../../electron/common/domain';
import type { LedgerIdentity } from '../../electron/main/audit/ledger/canonical-event';
import type { SegmentEvent } from '../helpers/audit-segments';
import { prng } from '../helpers/prng';

/**
 * A realistic audit event stream for the audit viewer benchmark: office sessions of 20 users over
 * one year of working days (KST office hours), each a series of tool calls walking the gate's real
 * event sequence (tool.proposed → permission.decided → [approval.requested → approval.decided] →
 * execution.started → execution.finished, or an early execution.finished when blocked), with the
 * skew a real office shows: a few tools do most of the work, a few users most of the calls, and
 * the outcomes that matter to an auditor are rare (denied ≈ 1 % of calls).
 */

export interface Tool {
  readonly name: string;
  readonly risk: Risk;
}

export const BENCH_TOOLS: readonly Tool[] = [
  ['filesystem.read', 'read'], ['filesystem.list', 'read'], ['search.text', 'read'], ['excel.read', 'read'],
  ['filesystem.info', 'read'], ['filesystem.search', 'read'], ['document.hwp.read', 'read'], ['document.pdf.read', 'read'],
  ['filesystem.write', 'write'], ['filesystem.edit', 'write'], ['excel.sheets', 'read'], ['git.status', 'read'],
  ['git.log', 'read'], ['git.diff', 'read'], ['document.word.read', 'read'], ['excel.write', 'write'],
  ['filesystem.copy', 'write'], ['filesystem.move', 'write'], ['filesystem.mkdir', 'write'], ['code.outline', 'read'],
  ['shell.execute', 'execute'], ['document.word.write', 'write'], ['filesystem.delete', 'destructive'], ['git.show', 'read'],
  ['code.stats', 'read'], ['git.blame', 'read'], ['archive.unzip', 'write'], ['archive.zip', 'write'],
  ['http.request', 'network'], ['browser.open', 'network'], ['system.info', 'read'], ['shell.output', 'read'],
  ['filesystem.restore', 'write'], ['ssh.execute', 'execute'], ['ssh.download', 'network'],
].map(([name, risk]) => ({ name: name as string, risk: risk as Risk }));

const SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임'];
const ROMAN = ['kim', 'lee', 'park', 'choi', 'jung', 'kang', 'cho', 'yoon', 'jang', 'lim'];
const GIVEN = ['민수', '서연', '지훈', '하은', '도윤', '수빈', '예준', '지민', '현우', '유진'];
const GIVEN_ROMAN = ['minsu', 'seoyeon', 'jihoon', 'haeun', 'doyoon', 'subin', 'yejun', 'jimin', 'hyunwoo', 'yujin'];

export const BENCH_USERS: readonly LedgerIdentity[] = Array.from({ length: 20 }, (_, i) => ({
  sessionId: '',
  osUser: `${ROMAN[i % 10]}.${GIVEN_ROMAN[(i * 3) % 10]}`,
  appUser: `${SURNAMES[i % 10]}${GIVEN[(i * 3) % 10]}`,
  hostId: `PC-${String(100 + i)}`,
}));

const DEPARTMENTS = ['인사팀', '재무팀', '총무팀', '기획팀', '영업팀', '개발팀', '법무팀', '감사팀'];
const DOC_WORDS = ['보고서', '예산', '회의록', '결재', '계약서', '견적서', '출장', '정산', '인사평가', '매출', '발주', '교육', '점검', '공지', '지침'];
const EXTENSIONS = ['.xlsx', '.hwp', '.docx', '.pdf', '.txt', '.csv', '.hwpx'];
const PROMPT_PARTS = ['이번 달', '지난 분기', '올해', '부서별', '전체'];
const PROMPT_VERBS = ['정리해 줘', '요약해 줘', '찾아 줘', '비교해 줘', '합계를 내 줘', '목록을 만들어 줘'];
/** Appears in about 1 call in 3,000: a rare term for the text-search benchmark. */
export const RARE_TERM = '개인정보유출';
/** A common Korean term (in most file names) and a 2-syllable one. */
export const COMMON_TERM = '보고서';


/** Index drawn with probability ∝ 1/(i+1)^s: a Zipf-like skew. */
function zipfPicker(n: number, s: number, rand: () => number): () => number {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const w of weights) cumulative.push((acc += w / total));
  return () => {
    const r = rand();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Random-looking hex (digests, ids) from a fixed pool: building each one from the PRNG took a third
 * of the generation time, and a query benchmark does not care whether two digests repeat.
 */
const HEX_POOL: readonly string[] = (() => {
  const rand = prng(7);
  return Array.from({ length: 4096 }, () => {
    let s = '';
    while (s.length < 64) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, '0');
    return s;
  });
})();

function hex(rand: () => number, chars: number): string {
  const s = HEX_POOL[Math.floor(rand() * HEX_POOL.length)] as string;
  return chars === 64 ? s : s.slice(0, chars);
}

function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length)] as T;
}

/** `C:\Users\kim.minsu\Documents\재무팀\2026\3분기_예산_보고서.xlsx`, sometimes with the rare term. */
function officePath(user: LedgerIdentity, rand: () => number): string {
  const dept = pick(DEPARTMENTS, rand);
  const word = rand() < 0.0003 ? RARE_TERM : pick(DOC_WORDS, rand);
  const name = `${1 + Math.floor(rand() * 4)}분기_${word}_${COMMON_TERM.length > 0 && rand() < 0.5 ? COMMON_TERM : '자료'}${pick(EXTENSIONS, rand)}`;
  return `C:\\Users\\${user.osUser}\\Documents\\${dept}\\2026\\${name}`;
}

function argsFor(tool: Tool, path: string, rand: () => number): Record<string, unknown> {
  if (tool.name.startsWith('shell.') || tool.name === 'ssh.execute') return { command: pick(['dir', 'ipconfig /all', 'git pull', 'python report.py', 'hostname'], rand) };
  if (tool.name === 'http.request' || tool.name === 'browser.open') return { url: `http://intranet.example.local/board/${Math.floor(rand() * 9000)}` };
  if (tool.name === 'search.text') return { path: path.slice(0, path.lastIndexOf('\\')), pattern: pick(DOC_WORDS, rand), ignoreCase: rand() < 0.3 };
  if (tool.name === 'filesystem.edit') return { path, oldText: pick(DOC_WORDS, rand), newText: pick(DOC_WORDS, rand) };
  return { path };
}

interface Weights {
  readonly deny: number;
  readonly ask: number;
}

function* toolCall(tool: Tool, user: LedgerIdentity, rand: () => number, weights: Weights): Generator<AuditEventInput> {
  const base = { callId: `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-a${hex(rand, 3)}-${hex(rand, 12)}`, tool: tool.name, risk: tool.risk, actionClass: ACTION_CLASS_OF_RISK[tool.risk] };
  const path = officePath(user, rand);
  const args = argsFor(tool, path, rand);
  yield { ...base, type: 'tool.proposed', data: { args, argsSha256: hex(rand, 64) } };
  const r = rand();
  const decision: Decision = r < weights.deny ? 'deny' : r < weights.deny + weights.ask ? 'ask' : 'allow';
  const rule = decision === 'deny' ? 'deny.paths[2]' : decision === 'ask' ? `defaults.${tool.risk}` : `allow.tools[${Math.floor(rand() * 6)}]`;
  yield { ...base, type: 'permission.decided', decision, rule, ruleSource: decision === 'deny' ? 'admin' : 'builtin', target: [path] };
  const blocked = (outcome: Outcome, message: string): AuditEventInput => ({ ...base, type: 'execution.finished', outcome, data: { blocked: true, message } });
  if (decision === 'deny') {
    yield blocked('denied', `Denied by rule deny.paths[2]: ${path}`);
    return;
  }
  const s = rand();
  if (s < 0.01) {
    yield { ...base, type: 'schema.violation', data: { mode: 'enforce', violations: [{ path: '/path', message: 'must be string' }] } };
    yield blocked('invalid', 'Arguments do not match the schema: /path must be string');
    return;
  }
  if (s < 0.015) {
    yield { ...base, type: 'precheck.refused', data: { message: `${path} is larger than 50 MB` } };
    yield blocked('refused', `${path} is larger than 50 MB`);
    return;
  }
  const digest = hex(rand, 64);
  if (decision === 'ask') {
    yield { ...base, type: 'approval.requested', data: { digest, summary: `${path} 파일을 ${ACTION_CLASS_OF_RISK[tool.risk]}합니다`, targetCount: 1, rule } };
    const choice = rand() < 0.05 ? 'deny' : rand() < 0.7 ? 'allow-once' : 'allow-session';
    yield { ...base, type: 'approval.decided', data: { digest, choice, approver: user.appUser, waitedMs: Math.floor(800 + rand() * 20_000) } };
    if (choice === 'deny') {
      yield blocked('denied', 'Denied by the user.');
      return;
    }
  }
  yield { ...base, type: 'execution.started', target: [path], data: { digest } };
  const o = rand();
  const outcome: Outcome = o < 0.94 ? 'ok' : o < 0.985 ? 'error' : o < 0.993 ? 'timeout' : 'cancelled';
  yield {
    ...base,
    type: 'execution.finished',
    outcome,
    target: [path],
    data: { durationMs: Math.round(rand() * 400_000) / 1000, outputChars: Math.floor(rand() * 30_000), outputSha256: hex(rand, 64) },
  };
}

/**
 * `count` events starting at `start` (UTC), advancing through KST office hours (09:00–18:00,
 * Monday–Friday) at the pace that fits `count` into `spanDays` calendar days.
 */
export function* auditEventStream(count: number, start: Date, spanDays: number, seed = 20261202): Generator<SegmentEvent> {
  const rand = prng(seed);
  const pickUser = zipfPicker(BENCH_USERS.length, 0.8, rand);
  const pickTool = zipfPicker(BENCH_TOOLS.length, 1.1, rand);
  const workingDays = Math.max(1, Math.round((spanDays * 5) / 7));
  const stepMs = (workingDays * 9 * 3600_000) / count;
  let clock = start.getTime();
  let produced = 0;
  const advance = (): Date => {
    clock += stepMs * (0.2 + rand() * 1.6);
    // KST = UTC+9: office hours 09–18 KST are 00–09 UTC; weekends skipped.
    let t = new Date(clock);
    while (t.getUTCHours() >= 9 || t.getUTCDay() === 0 || t.getUTCDay() === 6) {
      t = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate() + 1, 0, 0, Math.floor(rand() * 600)));
      clock = t.getTime();
    }
    return t;
  };
  while (produced < count) {
    const user = BENCH_USERS[pickUser()] as LedgerIdentity;
    const identity = { ...user, sessionId: `${hex(rand, 8)}-${hex(rand, 4)}` };
    const emit = function* (event: AuditEventInput): Generator<SegmentEvent> {
      if (produced >= count) return;
      produced += 1;
      yield { identity, time: advance(), event };
    };
    yield* emit({ type: 'session.start', data: { toolsetDigest: hex(rand, 64), policyDigest: hex(rand, 64), tools: BENCH_TOOLS.map((t) => t.name), roots: [`C:\\Users\\${user.osUser}\\Documents`] } });
    const calls = 5 + Math.floor(rand() * 40);
    // Some users work under a stricter policy: more asks and denials.
    const weights: Weights = user.osUser.startsWith('park') ? { deny: 0.03, ask: 0.3 } : { deny: 0.006, ask: 0.12 };
    for (let c = 0; c < calls && produced < count; c++) {
      if (rand() < 0.25) yield* emit({ type: 'request', data: { prompt: `${pick(PROMPT_PARTS, rand)} ${pick(DOC_WORDS, rand)} ${COMMON_TERM}를 ${pick(PROMPT_VERBS, rand)}` } });
      for (const event of toolCall(BENCH_TOOLS[pickTool()] as Tool, user, rand, weights)) yield* emit(event);
    }
    yield* emit({ type: 'session.stop', data: { grants: Math.floor(rand() * 3) } });
  }
}
