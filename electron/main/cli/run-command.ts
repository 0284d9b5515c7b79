import { resolve } from 'node:path';
import { escapeForDisplay } from '../../common/display-text';
import { pick, text, type Lang } from '../../common/i18n';
import type { AgentEvent, AgentResult } from '../agent/agent';
import { adminPolicyIfPresent, defaultDataDir } from '../runtime/paths';
import { flagString, parseArgs, UsageError, type ParsedArgs } from './args';
import { brokerFor, langFlag } from './session-flags';

/**
 * `baram run "TASK" --model URL|FILE.gguf` (SPEC §7, issue 16 scope 5): the agent in the terminal.
 * The answer streams to stdout; each tool call and its outcome go to stderr, as do approvals
 * (--approve ask). Ctrl-C is Stop. Exit 0 when the model answered, 130 when stopped, 1 otherwise.
 */

const RUN_FLAGS = ['model', 'workspace', 'policy', 'settings', 'data-dir', 'approve', 'lang', 'continue', 'tool-mode', 'context', 'max-steps', 'backend'];

const M = {
  call: (tool: string, args: string) => text(`• ${tool} 호출 ${args}`, `• calling ${tool} ${args}`),
  outcome: (outcome: string, detail: string) => text(`  → ${outcome}${detail}`, `  → ${outcome}${detail}`),
  repair: text('  모델의 호출이 올바르지 않아 한 번 고쳐 보게 합니다.', '  The call was not valid; the model gets one chance to repair it.'),
  conversation: (id: string) => text(`대화 ${id} (이어 가려면: baram run "…" --continue ${id})`, `Conversation ${id} (to resume: baram run "…" --continue ${id})`),
  raw: text('모델의 원래 출력:', "The model's raw output:"),
  stopping: text('중지하는 중입니다…', 'Stopping…'),
};

export async function runCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, RUN_FLAGS, []);
  const [task, ...extra] = args.positional;
  if (!task) {
    throw new UsageError(
      text(
        '할 일을 따옴표로 묶어 하나로 주세요. 예: baram run "다운로드 폴더의 파일을 연도별로 정리해줘" --model http://127.0.0.1:8080',
        'Give the task as one quoted argument. Example: baram run "Sort the downloads by year" --model http://127.0.0.1:8080',
      ),
    );
  }
  if (extra.length > 0) throw new UsageError(text(`예상하지 못한 인수 '${extra[0]}'. 할 일은 따옴표로 묶어 하나로 주세요.`, `Unexpected argument '${extra[0]}'. Quote the task as one argument.`));
  const target = flagString(args, 'model');
  if (!target) {
    throw new UsageError(
      text(
        '--model이 없습니다. 예: --model http://127.0.0.1:8080 (모델 서버) 또는 --model C:\\models\\qwen3-4b.gguf',
        'Missing --model. Example: --model http://127.0.0.1:8080 (a model server) or --model C:\\models\\qwen3-4b.gguf',
      ),
    );
  }
  const lang = langFlag(flagString(args, 'lang'));
  const embedded = !/^https?:\/\//i.test(target);
  const toolMode = toolModeOf(args, embedded);
  const contextTokens = positiveInt(args, 'context');
  const maxSteps = positiveInt(args, 'max-steps');
  const backendKind = flagString(args, 'backend') ?? 'openai';
  if (backendKind !== 'openai' && backendKind !== 'ollama') throw new UsageError(text(`--backend는 openai 또는 ollama입니다 ('${backendKind}'을(를) 받음).`, `--backend must be openai or ollama (was '${backendKind}').`));

  const approve = flagString(args, 'approve') ?? (process.stdin.isTTY ? 'ask' : 'none');
  const dataDir = flagString(args, 'data-dir') ?? defaultDataDir();
  const [{ openSession }, { Agent, AgentError, announcingBroker }, { ConversationStore, conversationsFile }, { createBackend }, { modelSourceAllowed }] = await Promise.all([
    import('../runtime/session'),
    import('../agent/agent'),
    import('../agent/conversations'),
    import('../model'),
    import('../policy'),
  ]);
  // The terminal broker prints the request itself; the announcement is for the progress stream.
  const broker = announcingBroker(await brokerFor(approve), (e) => show(e, lang));
  const session = await openSession({
    policyFile: flagString(args, 'policy') ?? adminPolicyIfPresent(),
    userSettingsFile: flagString(args, 'settings'),
    workspace: flagString(args, 'workspace'),
    dataDir,
    lang,
    broker,
    onNotice: (message) => process.stderr.write(`baram: ${pick(message, lang)}\n`),
  });
  // The admin policy names the model servers and files Baram may use: a prompt carries the user's
  // documents, so an unlisted server never sees one.
  const allowed = modelSourceAllowed(session.policy, embedded ? { kind: 'file', path: resolve(target) } : { kind: 'url', url: target });
  if (!allowed.ok) {
    process.stderr.write(`baram: ${pick(allowed.message, lang)}\n`);
    await session.close();
    return 1;
  }
  const store = ConversationStore.open(conversationsFile(dataDir));
  const backend = createBackend(embedded ? resolve(target) : target, { kind: backendKind });
  const controller = new AbortController();
  const onSigint = () => {
    if (!controller.signal.aborted) process.stderr.write(`\n${pick(M.stopping, lang)}\n`);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const agent = new Agent({
      gate: session.gate,
      backend,
      store,
      lang,
      workspace: session.roots[0] ?? process.cwd(),
      modelLabel: target,
      toolMode,
      ...(contextTokens !== undefined ? { contextTokens } : {}),
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      onEvent: (e) => show(e, lang),
    });
    const continueId = flagString(args, 'continue');
    let result: AgentResult;
    try {
      result = await agent.run(task, { signal: controller.signal, ...(continueId !== undefined ? { conversationId: continueId } : {}) });
    } catch (e) {
      if (e instanceof AgentError) {
        process.stderr.write(`baram: ${pick(e.text, lang)}\n`);
        return 1;
      }
      throw e;
    }
    process.stderr.write(`${pick(M.conversation(result.conversationId), lang)}\n`);
    return result.status === 'answered' ? 0 : result.status === 'cancelled' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    store.close();
    await backend.close?.();
    await session.close();
  }
}

/**
 * Terminal progress: the answer on stdout as it streams, everything else on stderr. What the model
 * or a tool wrote is escaped for display: an injected document must not be able to repaint the
 * terminal (a forged approval screen) with control sequences.
 */
function show(e: AgentEvent, lang: Lang): void {
  switch (e.type) {
    case 'text':
      process.stdout.write(escapeForDisplay(e.delta, { keepNewlines: true }));
      break;
    case 'calling':
      process.stderr.write(`${pick(M.call(escapeForDisplay(e.tool), shorten(escapeForDisplay(JSON.stringify(e.args)), 200)), lang)}\n`);
      break;
    case 'called': {
      const detail = e.outcome === 'ok' ? '' : `: ${shorten(escapeForDisplay(e.text.replace(/\s+/g, ' ')), 300)}`;
      process.stderr.write(`${pick(M.outcome(e.outcome, detail), lang)}\n`);
      break;
    }
    case 'repair':
      process.stderr.write(`${pick(M.repair, lang)}\n`);
      break;
    case 'done': {
      const r = e.result;
      if (r.status === 'answered') {
        process.stdout.write('\n');
      } else {
        process.stderr.write(`${r.answer}\n`);
        if (r.raw) process.stderr.write(`${pick(M.raw, lang)}\n${escapeForDisplay(r.raw, { keepNewlines: true })}\n`);
      }
      break;
    }
    default:
      break;
  }
}

function shorten(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function toolModeOf(args: ParsedArgs, embedded: boolean): 'native' | 'constrained' {
  const value = flagString(args, 'tool-mode') ?? (embedded ? 'constrained' : 'native');
  if (value !== 'native' && value !== 'constrained') throw new UsageError(text(`--tool-mode는 native 또는 constrained입니다 ('${value}'을(를) 받음).`, `--tool-mode must be native or constrained (was '${value}').`));
  return value;
}

function positiveInt(args: ParsedArgs, name: string): number | undefined {
  const value = flagString(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(text(`--${name}에는 1 이상의 정수를 주세요 ('${value}'을(를) 받음).`, `--${name} must be a positive whole number (was '${value}').`));
  return n;
}

/** `baram conversations [--json]`: the saved conversations, newest first, to pick one for --continue. */
export async function conversationsCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['data-dir', 'lang'], ['json']);
  const lang = langFlag(flagString(args, 'lang'));
  const { ConversationStore, conversationsFile } = await import('../agent/conversations');
  const store = ConversationStore.open(conversationsFile(flagString(args, 'data-dir') ?? defaultDataDir()));
  try {
    const list = store.list();
    if (args.flags.has('json')) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return 0;
    }
    if (list.length === 0) process.stdout.write(`${pick(text('저장된 대화가 없습니다.', 'No saved conversations.'), lang)}\n`);
    for (const c of list) process.stdout.write(`${c.id.slice(0, 8)}  ${c.updatedAt.slice(0, 16).replace('T', ' ')}  ${c.status.padEnd(10)} ${escapeForDisplay(c.title)}\n`);
    return 0;
  } finally {
    store.close();
  }
}
