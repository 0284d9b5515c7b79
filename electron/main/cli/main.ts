import { readFileSync } from 'node:fs';
import { blockedByGate } from '../../common/domain';
import { pick, text } from '../../common/i18n';
import { adminPolicyIfPresent, defaultDataDir } from '../runtime/paths';
import { flagString, langOfArgv, parseArgs, UsageError } from './args';
import { brokerFor, langFlag } from './session-flags';

// Everything heavier (the tool registry, the gate, audit/SQLite, ssh2, the policy engine) is
// imported inside the command that needs it: `baram --help` loads none of it and `baram tools`
// only the registry, which keeps both within 0.4 s (docs/2026-12-03-cli-ships-built.md).

/**
 * `baram` — the same core as the desktop app, without Electron: for auditors, administrators,
 * scripted checks and acceptance tests (SPEC §7). Exit codes: 0 ok, 3 the gate blocked the call
 * (denied / invalid / refused), 2 usage error, 1 anything else.
 */
const HELP = `baram — 바람 command line

  baram tools [--json]                       list tools (name, family, risk, schema)
        --policy FILE     also the tools of that policy's MCP servers, with the risk it gives them
                          (the servers start for the listing and stop after; the ledger records it;
                          --workspace and --data-dir as for call)
  baram call TOOL 'JSON-ARGS' [options]      one call through the whole gate; prints a JSON result
        --workspace DIR   folder to work in (must lie inside the policy's workspaceRoots)
        --policy FILE     admin policy (default: /etc/baram/policy.json if present, else built-in)
        --settings FILE   user settings (tighten-only; default: <data-dir>/settings.json if present)
        --data-dir DIR    Baram's data: audit log, trash (default: ${defaultDataDir()})
        --approve all|none|ask   who approves "ask" decisions (default: ask on a terminal, else none)
        --lang ko|en      language of messages (default: ko)
  baram run "TASK" --model URL|FILE.gguf [options]   the assistant in the terminal: streams the answer,
                                             asks approvals, Ctrl-C stops; exit 0 when answered
        --continue ID     resume a saved conversation   --tool-mode native|constrained
        --backend openai|ollama   --context TOKENS   --max-steps N   (and every option of call)
  baram conversations [--json]               saved conversations, newest first (ids for --continue)
  baram audit verify [--key K0] [--checkpoint FILE]... [--file EXPORT.jsonl] [--json]
                                             check the audit ledger (or an export); exit 0 OK, 1 damaged
  baram audit export --format jsonl|csv|syslog|cef --out FILE [--from DATE] [--to DATE]
  baram audit checkpoint                     take a checkpoint now: the text on stdout (> saved.txt for
                                             verify --checkpoint), guidance and QR code on stderr
  baram audit tail [--lines N] [--follow]    the latest events, one per line
  baram audit backup --out DIR               copy the ledger with SQLite's backup API
  baram audit init                           set up auditing and show the verification key once
        (all audit commands take --data-dir DIR and --lang ko|en; CSV exports use Korean words
         and Excel-readable local times, with the codes and UTC times in their own columns)
  baram policy check FILE [--settings FILE] [--lang ko|en]
                                             validate a policy (and a user's settings against it), run its tests, warn
  baram schema check FILE [--json] [--lang ko|en]
                                             apply the external-schema rules (X-SCHEMA) to a JSON Schema, a tool
                                             manifest or an MCP tools/list result; each violation with its JSON path
  baram route "REQUEST" [--json] [--lang ko|en]   the tools a request is offered, and the tool block's token cost
  baram model check --model URL|FILE.gguf [--policy FILE] [--settings FILE] [--json] [--lang ko|en]
                                             what a model server or GGUF file can do, if the policy allows it

Exit codes: 0 ok · 3 blocked by the gate (denied, invalid, refused) · 2 usage · 1 other failure
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        return 0;
      case '--version':
        process.stdout.write(`${version()}\n`);
        return 0;
      case 'tools':
        return await toolsCommand(rest);
      case 'call':
        return await callCommand(rest);
      case 'run':
        return await (await import('./run-command')).runCommand(rest);
      case 'conversations':
        return await (await import('./run-command')).conversationsCommand(rest);
      case 'audit': {
        const { auditCommand } = await import('./audit-command');
        return await auditCommand(rest, process.stdout, version());
      }
      case 'route':
        return await routeCommand(rest);
      case 'model':
        if (rest[0] === 'check') return await (await import('./model-check')).modelCheckCommand(rest.slice(1));
        throw new UsageError(text(`알 수 없는 model 명령 '${rest[0] ?? ''}'입니다. 이렇게 쓰세요: baram model check --model URL|FILE.gguf`, `Unknown model command '${rest[0] ?? ''}'. Use: baram model check --model URL|FILE.gguf`));
      case 'schema':
        if (rest[0] === 'check') return await (await import('./schema-check')).schemaCheckCommand(rest.slice(1));
        throw new UsageError(text(`알 수 없는 schema 명령 '${rest[0] ?? ''}'입니다. 이렇게 쓰세요: baram schema check FILE`, `Unknown schema command '${rest[0] ?? ''}'. Use: baram schema check FILE`));
      case 'policy':
        if (rest[0] === 'check') return await (await import('./policy-check')).checkPolicyCommand(rest.slice(1));
        throw new UsageError(text(`알 수 없는 policy 명령 '${rest[0] ?? ''}'입니다. 이렇게 쓰세요: baram policy check FILE`, `Unknown policy command '${rest[0] ?? ''}'. Use: baram policy check FILE`));
      default:
        throw new UsageError(text(`알 수 없는 명령 '${command}'입니다. 'baram --help'로 목록을 보세요.`, `Unknown command '${command}'. Run 'baram --help' for the list.`));
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`baram: ${e.in(langOfArgv(argv))}\n`);
      return 2;
    }
    // Only a command that loaded the session module can throw its error, so this import is a cache hit.
    if (e instanceof Error && e instanceof (await import('../runtime/session')).SessionError) {
      process.stderr.write(`baram: ${e.message}\n`);
      return 1;
    }
    // Anything else is reported as a sentence, not a stack trace; BARAM_DEBUG=1 shows the stack.
    process.stderr.write(`baram: ${e instanceof Error ? (process.env.BARAM_DEBUG ? e.stack : e.message) : String(e)}\n`);
    return 1;
  }
}

async function toolsCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['policy', 'workspace', 'data-dir', 'lang'], ['json']);
  const catalog = flagString(args, 'policy') === undefined ? await builtinCatalog() : await sessionCatalog(args);
  if (args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify(catalog, null, 2)}\n`);
    return 0;
  }
  for (const t of catalog) process.stdout.write(`${t.name.padEnd(20)} ${t.risk.padEnd(12)} ${t.description.ko}\n`);
  return 0;
}

async function builtinCatalog() {
  // The catalog module, not the gate's index: that one re-exports the Gate, and with it audit/.
  const { toolCatalog } = await import('../gate/catalog');
  return toolCatalog();
}

/**
 * What a session under this policy offers: the built-in tools and those of the policy's MCP
 * servers, with the risk the policy gives them. The servers start for the listing and stop after
 * it (the ledger in --data-dir records both); nothing is called, and no approval is asked.
 */
async function sessionCatalog(args: ReturnType<typeof parseArgs>) {
  const lang = langFlag(flagString(args, 'lang'));
  const [{ openSession }, broker] = await Promise.all([import('../runtime/session'), brokerFor('none')]);
  const session = await openSession({
    policyFile: flagString(args, 'policy'),
    workspace: flagString(args, 'workspace'),
    dataDir: flagString(args, 'data-dir') ?? defaultDataDir(),
    lang,
    broker,
    onNotice: (message) => process.stderr.write(`${pick(message, lang)}\n`),
  });
  try {
    return session.gate.tools();
  } finally {
    await session.close();
  }
}

async function routeCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['lang'], ['json']);
  const [request, ...extra] = args.positional;
  if (!request || extra.length > 0) {
    throw new UsageError(text('요청을 한 인수로 주세요. 예: baram route "다운로드 폴더의 엑셀 파일을 정리해줘"', 'Give the request as one argument. Example: baram route "다운로드 폴더의 엑셀 파일을 정리해줘"'));
  }
  const [{ toolCatalog }, { routeCommandOutput }] = await Promise.all([import('../gate/catalog'), import('../agent/routing')]);
  process.stdout.write(`${routeCommandOutput(request, toolCatalog(), langFlag(flagString(args, 'lang')), args.flags.has('json'))}\n`);
  return 0;
}

async function callCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['workspace', 'policy', 'settings', 'data-dir', 'approve', 'lang'], []);
  const [toolName, json, ...extra] = args.positional;
  if (!toolName) throw new UsageError(text("도구 이름이 없습니다. 예: baram call filesystem.read '{\"path\":\"a.txt\"}'", "Missing TOOL. Example: baram call filesystem.read '{\"path\":\"a.txt\"}'"));
  if (extra.length > 0) {
    throw new UsageError(text(`예상하지 못한 인수 '${extra[0]}'입니다. JSON 인수 전체를 작은따옴표로 감싸 한 단어로 주세요.`, `Unexpected argument '${extra[0]}'. Quote the JSON arguments as one word.`));
  }
  let toolArgs: unknown = {};
  if (json !== undefined) {
    try {
      toolArgs = JSON.parse(json);
    } catch (e) {
      const why = (e as Error).message;
      throw new UsageError(text(`인수가 올바른 JSON이 아닙니다(${why}). 예: '{"path":"a.txt"}'`, `The arguments are not valid JSON (${why}). Example: '{"path":"a.txt"}'`));
    }
  }
  const lang = langFlag(flagString(args, 'lang'));
  const approve = flagString(args, 'approve') ?? (process.stdin.isTTY ? 'ask' : 'none');
  const broker = await brokerFor(approve);
  const { openSession } = await import('../runtime/session');
  const session = await openSession({
    policyFile: flagString(args, 'policy') ?? adminPolicyIfPresent(),
    userSettingsFile: flagString(args, 'settings'),
    workspace: flagString(args, 'workspace'),
    dataDir: flagString(args, 'data-dir') ?? defaultDataDir(),
    lang,
    broker,
    // MCP servers started, stopped, tools refused: for the person at the terminal, not the JSON result.
    onNotice: (message) => process.stderr.write(`${pick(message, lang)}\n`),
  });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const result = await session.gate.call({ tool: toolName, args: toolArgs, signal: controller.signal });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return result.outcome === 'ok' ? 0 : blockedByGate(result.outcome) ? 3 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    await session.close();
  }
}

function version(): string {
  // From the sources this file is electron/main/cli/main.ts; built, it is out/cli/baram.js.
  const up = import.meta.url.endsWith('.ts') ? '../../../' : '../../';
  const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
