import { Type, type Static } from '@sinclair/typebox';
import { RISKS, type Risk } from '../../common/domain';
import { text, type Text } from '../../common/i18n';
import { absoluteDir } from './checks';
import { jsonPath } from './json-path';
import type { McpPolicy, McpServerPolicy, PolicyProblem } from './types';

/**
 * The policy's `mcp` section (issue 19): the stdio MCP servers Baram may start. Only the
 * administrator's policy has it; the user settings' schema has no such field, so a user cannot add
 * a server (SPEC §8: settings only tighten). A server's tools are external code: each call passes
 * the same gate as a built-in tool, with the risk the administrator gives it here (default
 * `execute`, which asks). The server's own annotations (readOnlyHint …) are claims, never risk.
 */

export const MCP_DEFAULTS = {
  callTimeoutMs: 30_000,
  startTimeoutMs: 15_000,
  maxOutputBytes: 4 * 1024 * 1024,
  maxRestarts: 3,
} as const;

/** The risk of a tool the administrator did not list: `execute`, which asks by default. */
export const MCP_DEFAULT_RISK: Risk = 'execute';

/** As the tool registry requires (`mcp.<server>.<tool>`); lower case so rules read the same everywhere. */
export const MCP_SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const closed = { additionalProperties: false } as const;

const riskEnum = Type.Unsafe<Risk>({ type: 'string', enum: [...RISKS], description: 'read, write, destructive, execute or network: which default decision applies.' });

const McpServerSchema = Type.Object(
  {
    command: Type.String({ minLength: 1, description: 'Program by bare name ("node", never a path), resolved in shell.trustedDirs only; .bat/.cmd are refused.' }),
    args: Type.Optional(Type.Array(Type.String(), { description: 'Arguments, passed as they are (no shell).' })),
    env: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'an environment variable name such as LANG' }), {
        description: "Variables passed from Baram's environment (PATH becomes shell.trustedDirs); nothing else is inherited.",
      }),
    ),
    cwd: Type.Optional(Type.String({ minLength: 1, description: 'Working folder (absolute or ~/…); default: the home folder.' })),
    tools: Type.Optional(
      Type.Unsafe<Record<string, Risk>>({ type: 'object', additionalProperties: riskEnum, description: 'Risk per tool name; a tool not listed is "execute" (asks).' }),
    ),
    callTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 600000, description: 'Longest a tool call may take (ms); then the server is stopped and restarted.' })),
    startTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 120000, description: 'Longest the server may take to start and list its tools (ms).' })),
    maxOutputBytes: Type.Optional(
      Type.Integer({ minimum: 65536, maximum: 268435456, description: 'Bytes the server may send for one request before it is stopped as flooding.' }),
    ),
    maxRestarts: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'Restarts per session after the server dies, hangs or floods.' })),
  },
  closed,
);

export const McpSectionSchema = Type.Object(
  {
    servers: Type.Optional(
      Type.Unsafe<Record<string, Static<typeof McpServerSchema>>>({
        type: 'object',
        additionalProperties: McpServerSchema,
        description: 'MCP servers (stdio) by name: lower-case letters, digits, - and _; their tools appear as mcp.<name>.<tool>.',
      }),
    ),
  },
  { ...closed, description: 'MCP servers Baram may start. Only this policy can list them; user settings cannot.' },
);

export type McpSectionFile = Static<typeof McpSectionSchema>;

function commandProblem(command: string): Text | undefined {
  if (/[\\/:]/.test(command)) {
    return text(
      `경로 없이 프로그램 이름만 쓰세요(예: '${command}'이 아니라 'node'). 프로그램은 shell.trustedDirs에서만 찾습니다.`,
      `Write the program's bare name (e.g. 'node', not '${command}'); programs are found only in shell.trustedDirs.`,
    );
  }
  if (/\s/.test(command)) {
    return text(`'${command}'에 공백이 있습니다. 프로그램 이름만 command에 쓰고, 인수는 args에 쓰세요.`, `'${command}' contains a space: put only the program name in command and its arguments in args.`);
  }
  if (/\.(bat|cmd)$/i.test(command)) {
    return text(
      `'${command}'은(는) 배치 파일입니다. cmd.exe가 인수를 다시 해석하므로 실행하지 않습니다. 프로그램(.exe)을 직접 쓰세요.`,
      `'${command}' is a batch file; cmd.exe re-parses its arguments, so it is never started. Name the program (.exe) itself.`,
    );
  }
  return undefined;
}

/** Problems a schema cannot express, and the section with defaults filled and `~` expanded. */
export function checkMcpSection(file: McpSectionFile | undefined, home: string, platform: NodeJS.Platform): { problems: PolicyProblem[]; mcp?: McpPolicy } {
  if (file === undefined) return { problems: [] };
  const problems: PolicyProblem[] = [];
  const servers: Record<string, McpServerPolicy> = {};
  for (const [name, s] of Object.entries(file.servers ?? {})) {
    const at = (...rest: (string | number)[]) => jsonPath(['mcp', 'servers', name, ...rest]);
    if (!MCP_SERVER_NAME.test(name)) {
      problems.push({
        path: at(),
        message: text(
          `서버 이름 '${name}'은(는) 쓸 수 없습니다. 소문자, 숫자, -, _로 32자까지 쓰세요(예: 'docs'). 도구 이름이 mcp.<이름>.<도구>가 됩니다.`,
          `The server name '${name}' cannot be used: write up to 32 lower-case letters, digits, - or _ (e.g. 'docs'); its tools are named mcp.<name>.<tool>.`,
        ),
      });
    }
    const bad = commandProblem(s.command);
    if (bad) problems.push({ path: at('command'), message: bad });
    (s.args ?? []).forEach((arg, i) => {
      if (arg.includes('\u0000')) problems.push({ path: at('args', i), message: text('인수에 NUL 문자가 있습니다. 지우세요.', 'The argument contains a NUL character; remove it.') });
    });
    let cwd: string | undefined;
    if (s.cwd !== undefined) {
      const checked = absoluteDir(s.cwd, home, platform);
      if (checked.ok) cwd = checked.path;
      else problems.push({ path: at('cwd'), message: checked.message });
    }
    servers[name] = {
      command: s.command,
      args: s.args ?? [],
      env: s.env ?? [],
      ...(cwd !== undefined ? { cwd } : {}),
      tools: { ...(s.tools ?? {}) },
      callTimeoutMs: s.callTimeoutMs ?? MCP_DEFAULTS.callTimeoutMs,
      startTimeoutMs: s.startTimeoutMs ?? MCP_DEFAULTS.startTimeoutMs,
      maxOutputBytes: s.maxOutputBytes ?? MCP_DEFAULTS.maxOutputBytes,
      maxRestarts: s.maxRestarts ?? MCP_DEFAULTS.maxRestarts,
    };
  }
  return { problems, mcp: { servers } };
}
