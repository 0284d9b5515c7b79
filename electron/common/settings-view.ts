import type { Decision, Risk, RuleSource } from './domain';
import type { Lang, Text } from './i18n';

/**
 * What the settings screen and the chat's model status show (issue 17 scope 5), as the IPC
 * contract carries it. Pure types: no node:*, no electron, no DOM.
 */

/** The model in use, as the chat screen's status line shows it. */
export interface ModelStatus {
  /** connected: it answered just now; unreachable: it did not; none: no model is chosen or allowed. */
  readonly state: 'connected' | 'unreachable' | 'none';
  /** Server URL or GGUF file; null when none. */
  readonly target: string | null;
  /** The model's name as the server (or the file) gives it. */
  readonly model: string | null;
  /** Plain words for the person: what is wrong and what to do. */
  readonly message: Text;
}

/**
 * The answer to "use this model": in use now (and saved), or refused with the reason in words
 * (not on the administrator's list, not an address or a full path).
 */
export type ModelUseResult = { readonly used: true; readonly status: ModelStatus } | { readonly used: false; readonly message: Text };

/** A connection check from the settings screen (no prompt is sent: a check carries no documents). */
export interface ModelCheckView {
  readonly target: string;
  /** False: the administrator's policy does not list it, and it was never contacted or opened. */
  readonly allowed: boolean;
  readonly reachable: boolean;
  readonly model: string | null;
  /** llama-server, ollama, vllm, lmstudio, openai, embedded; null when nothing answered. */
  readonly kind: string | null;
  readonly message: Text;
  /** The details `baram model check` would list. */
  readonly problems: readonly Text[];
}

/** What the administrator lets this computer use as a model. */
export interface AllowedModels {
  /** URL prefixes, or 'loopback' (any port on this computer). */
  readonly endpoints: readonly string[];
  /** Files and folders as the policy lists them. */
  readonly files: readonly string[];
  /** The .gguf files found in those (folders listed one level deep), to pick from. */
  readonly ggufFiles: readonly string[];
}

export interface SettingsView {
  readonly lang: Lang;
  /** The model chosen (saved in settings, or given at start); null when none. */
  readonly modelTarget: string | null;
  readonly allowed: AllowedModels;
}

/** One item of the effective policy; `locked`: the administrator set it, user settings cannot widen it. */
export interface PolicyRuleView {
  readonly decision: Decision;
  readonly rule: string;
  readonly source: RuleSource;
  readonly locked: boolean;
}

export interface PolicyDefaultView {
  readonly risk: Risk;
  readonly decision: Decision;
  readonly source: RuleSource;
  readonly locked: boolean;
}

/** The effective policy, read-only: what `baram policy check` reports, for the person at the desk. */
export interface PolicyView {
  /** The administrator's policy file; null: the built-in policy (no file installed). */
  readonly adminFile: string | null;
  readonly digest: string;
  readonly workspaceRoots: readonly string[];
  readonly defaults: readonly PolicyDefaultView[];
  readonly rules: readonly PolicyRuleView[];
  readonly shellCommands: readonly string[];
  readonly httpAllow: readonly string[];
  readonly modelEndpoints: readonly string[];
  readonly modelFiles: readonly string[];
  readonly approvalTimeoutSeconds: number;
  readonly auditRetentionDays: number;
  /** What would hurt at run time (a listed program missing, a rule that matches no tool). */
  readonly warnings: readonly Text[];
}

/** An "allow for this session" grant: this tool, on these (resolved) paths, hosts or commands. */
export interface GrantView {
  /** Names it for `grants:revoke` (a digest of the grant). */
  readonly id: string;
  readonly tool: string;
  /** PATH, URL, HOST, COMMAND…; null: the whole tool. */
  readonly kind: string | null;
  readonly values: readonly string[];
}
