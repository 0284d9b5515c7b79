import type { Decision, Risk, RuleSource, SchemaMode, SubjectKind } from '../../common/domain';
import type { Text } from '../../common/i18n';

/**
 * The policy file of SPEC §8 after validation, with defaults filled in and `~` expanded.
 * Field names are a contract with administrators: add fields, never rename.
 */
export interface Policy {
  readonly version: 1;
  /** Absolute paths ('~' expanded). May be empty in a policy file; the CLI/app then supplies one. */
  readonly workspaceRoots: readonly string[];
  readonly defaults: Readonly<Record<Risk, Decision>>;
  readonly rules: RuleLists;
  readonly shell: ShellPolicy;
  readonly http: { readonly allow: readonly string[] };
  /**
   * The browser tools' program (browser.open, browser.screenshot); absent when the file has no
   * `browser` section (the installed Chrome/Edge is found). Admin-only, like http.
   */
  readonly browser?: { readonly executablePath?: string };
  readonly ssh: { readonly hosts: Readonly<Record<string, SshHostPolicy>> };
  readonly schemaValidation: { readonly builtin: SchemaMode; readonly external: SchemaMode };
  readonly approval: { readonly timeoutSeconds: number };
  readonly audit: { readonly retentionDays: number };
  readonly tests: readonly PolicyTest[];
  /** Model servers and GGUF files Baram may use (issue 16); no section: loopback servers only, no file. */
  readonly model: ModelPolicy;
  /**
   * MCP servers Baram may start (issue 19); absent when the file has no `mcp` section (none start).
   * Only the administrator's policy has this field: user settings cannot add a server.
   */
  readonly mcp?: McpPolicy;
  /**
   * Risks whose default the policy file set itself; the others came from the built-in defaults.
   * Kept so each default decision names its true source (admin vs builtin). Absent = all explicit.
   */
  readonly explicitDefaults?: readonly Risk[];
}

export interface ModelPolicy {
  /** URL prefixes (as http.allow), or 'loopback' for any port on this computer. */
  readonly endpoints: readonly string[];
  /** Absolute GGUF files or folders holding them ('~' expanded). */
  readonly files: readonly string[];
}

/** The `mcp` section: stdio servers by name (their tools become `mcp.<name>.<tool>`). */
export interface McpPolicy {
  readonly servers: Readonly<Record<string, McpServerPolicy>>;
}

export interface McpServerPolicy {
  /** A bare program name, resolved in shell.trustedDirs only (as shell.execute resolves programs). */
  readonly command: string;
  readonly args: readonly string[];
  /** Names of variables passed from Baram's environment; nothing else is inherited. */
  readonly env: readonly string[];
  /** Absolute working folder ('~' expanded); absent: the user's home folder. */
  readonly cwd?: string;
  /** Risk per tool name, as the administrator judges it; a tool not listed is `execute` (asks). */
  readonly tools: Readonly<Record<string, Risk>>;
  readonly callTimeoutMs: number;
  readonly startTimeoutMs: number;
  /** Bytes the server may send for one request (and the largest single message) before it is stopped as flooding. */
  readonly maxOutputBytes: number;
  /** Restarts after the server dies or is stopped for a hang or flood, per session. */
  readonly maxRestarts: number;
}

export interface RuleLists {
  readonly allow: readonly string[];
  readonly ask: readonly string[];
  readonly deny: readonly string[];
}

export interface ShellCommandPolicy {
  /** Arguments (exact, or `--flag` prefix of `--flag=value`) this program may not receive. */
  readonly denyArgs: readonly string[];
}

export interface ShellPolicy {
  readonly commands: Readonly<Record<string, ShellCommandPolicy>>;
  readonly trustedDirs: readonly string[];
  readonly env: readonly string[];
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly maxOutputChars: number;
  readonly maxCaptureBytes: number;
}

export interface SshHostPolicy {
  readonly address: string;
  readonly port: number;
  readonly user: string;
  readonly hostKey: string;
  readonly commands: readonly string[];
  /** Absolute path of the private key to log in with ('~' expanded); absent: the host cannot be used yet. */
  readonly identityFile?: string;
}

/** What a policy test expects: a permission decision, or `refuse` (the precheck refuses before approval). */
export type PolicyExpectation = Decision | 'refuse';

export interface PolicyTest {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly expect: PolicyExpectation;
}

/**
 * User settings may only tighten the admin policy (DESIGN idiom 4): add deny/ask rules, drop allow
 * rules, choose stricter defaults, narrow the workspace roots. Anything that would widen is an error.
 */
export interface UserSettings {
  readonly workspaceRoots?: readonly string[];
  readonly defaults?: Partial<Readonly<Record<Risk, Decision>>>;
  readonly rules?: { readonly ask?: readonly string[]; readonly deny?: readonly string[]; readonly dropAllow?: readonly string[] };
  /** Narrower model lists; a field left out stays the administrator's. */
  readonly model?: Partial<ModelPolicy>;
}

/** A rule with where it came from, so every decision can name its source. */
export interface SourcedRule {
  readonly text: string;
  readonly source: RuleSource;
}

/** The merged policy the gate enforces. */
export interface EffectivePolicy {
  readonly policy: Policy;
  readonly rules: { readonly allow: readonly SourcedRule[]; readonly ask: readonly SourcedRule[]; readonly deny: readonly SourcedRule[] };
  /** Source of each default (admin file, user settings, or built-in when the file omitted it). */
  readonly defaultSources: Readonly<Record<Risk, RuleSource>>;
  /** SHA-256 of the canonical JSON of `policy` (written to the audit log at every start). */
  readonly digest: string;
  /**
   * The administrator's policy on its own, when user settings were merged in. Every decision is the
   * stricter of this one's and the merged policy's (SPEC §8), so settings can never widen.
   */
  readonly adminOnly?: EffectivePolicy;
}

/** A registered tool as the merge needs to know it: which default decision applies to it. */
export interface ToolRisk {
  readonly name: string;
  readonly risk: Risk;
}

/** A problem in a policy file, located by JSON path ("$.shell.commands.git.denyArgs[0]"). */
export interface PolicyProblem {
  readonly path: string;
  /** In both languages: the CLI and the window show the one the administrator chose (issue 15, item 13). */
  readonly message: Text;
}

export type PolicyLoad<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly PolicyProblem[] };

/** "Allow for this session" grants: same tool + same (resolved) subject values. */
export interface SessionGrant {
  readonly tool: string;
  readonly kind: SubjectKind | null;
  readonly values: readonly string[];
}

export interface PermissionQuery {
  readonly tool: string;
  /** False when no registered tool has this name: always deny (SPEC G-PERM). */
  readonly known: boolean;
  readonly risk: Risk;
  /** Raw subject from the arguments (the tool's SubjectSpec applied); null when the tool declares none. */
  readonly subject: { readonly kind: SubjectKind; readonly values: readonly string[] } | null;
  readonly sessionGrants?: readonly SessionGrant[];
}

/** Facts about the machine the evaluation needs (injected for tests; defaults from os/process). */
export interface PermissionEnv {
  /** Realpath'd workspace roots; roots[0] is where relative paths resolve. */
  readonly roots: readonly string[];
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** Absolute paths no tool may touch at all (audit directory, policy file, Baram's data dir). */
  readonly protectedPaths: readonly string[];
}

export interface PermissionVerdict {
  readonly decision: Decision;
  /** The rule that decided, as written ("filesystem.*(**\/.ssh/**)", "defaults.read", "workspaceRoots"). */
  readonly rule: string;
  readonly source: RuleSource;
  /** For deny: what the model is told, with a signpost. */
  readonly reason?: Text;
  /** PATH: absolute normalised values, plus their realpath forms where they differ. */
  readonly resolved: readonly string[];
  /** Rule "evaluation-error" only: what went wrong, for the audit log (never shown to the model). */
  readonly error?: string;
}
