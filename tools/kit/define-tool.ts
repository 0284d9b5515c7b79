import type { Static, TObject } from '@sinclair/typebox';
import type { Concurrency, Risk, SubjectKind } from '../../electron/common/domain';
import type { FileAccess, Fingerprint } from '../../electron/common/file-access';
import type { Lang, Text } from '../../electron/common/i18n';
import type { ToolResult } from '../../electron/common/tool-result';
import type { HttpCapability } from '../../electron/common/http-capability';
import type { ProcessCapability } from '../../electron/common/process-capability';
import type { SshCapability } from '../../electron/common/ssh-capability';
import type { SystemCapability } from '../../electron/common/system-capability';

/**
 * A tool is a declaration (DESIGN idiom 1): one TypeBox object gives both the JSON Schema sent to
 * the model and the static type `execute` receives, so schema and type cannot drift.
 */

/**
 * Which argument fields the permission layer matches rules against. Declarative on purpose: the
 * gate reads these fields from the RAW arguments before schema validation (SPEC G-ORDER), so a
 * tool function cannot be handed input it did not expect.
 *   PATH:    each field is one path (a string) or several (array of strings); a missing optional
 *            field means the first workspace root.
 *   COMMAND: string fields and string-array fields are joined with single spaces into one argv line.
 *   URL / HOST: the field's string value.
 */
export interface SubjectSpec {
  readonly kind: SubjectKind;
  readonly fields: readonly string[];
}

/** SubjectSpec whose field names are checked against the input type at compile time. */
export interface TypedSubjectSpec<I> extends SubjectSpec {
  readonly fields: readonly (keyof I & string)[];
}

/** One file an approval covers. Execution touches exactly these and re-checks their fingerprints. */
export interface PlannedTarget {
  /** Absolute path of the file or folder acted on. */
  readonly path: string;
  /** Destination for move/copy (absolute). */
  readonly to?: string;
  /** State at planning time; null = did not exist (e.g. a new file to write). */
  readonly fingerprint: Fingerprint | null;
}

export interface Plan {
  readonly targets: readonly PlannedTarget[];
  /** The program a command tool will run, as resolved at planning time; execution must run exactly this file. */
  readonly program?: { readonly path: string; readonly realPath: string; readonly sha256: string };
  /** Diff or content preview shown in the approval dialog (edits, overwrites). */
  readonly preview?: string;
  /** Host or URL for network tools, shown prominently. */
  readonly destination?: string;
}

declare const approvedBrand: unique symbol;
/**
 * A plan a human (or an allow rule) approved. Only the gate constructs one (DESIGN idiom 7); the
 * brand cannot be produced without a cast, and the architecture test forbids that cast elsewhere.
 */
export type ApprovedPlan = Plan & {
  readonly [approvedBrand]: true;
  /** SHA-256 over the canonical request and the expanded targets: what was approved is what runs. */
  readonly digest: string;
};

/** A refusal or error text the model sees; must say what to do instead (SPEC G-SIGNPOST). */
export interface Failure {
  readonly failure: Text;
}

export function failure(text: Text): Failure {
  return { failure: text };
}

export function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && 'failure' in value;
}

/** Read-only view of the policy a tool may consult (what is configured, never the decision). */
export interface ToolPolicyView {
  readonly maxOutputChars: number;
  /** Command timeouts (policy shell.defaultTimeoutMs / maxTimeoutMs), for shell and ssh. */
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  /** Arguments a whitelisted program may not get (policy denyArgs plus the built-in ones). */
  denyArgsOf(command: string): readonly string[];
}

export interface PrecheckContext {
  readonly lang: Lang;
  readonly files: FileAccess;
  readonly policy: ToolPolicyView;
  /** The HTTP allowlist checks, without network access (precheck and plan may not send anything). */
  readonly http: Pick<HttpCapability, 'allowedPrefixes' | 'check'>;
  /** The SSH host and command checks, without network access. */
  readonly ssh: Pick<SshCapability, 'check'>;
  /** Finds a whitelisted program in the trusted folders, without running it. */
  readonly processes: Pick<ProcessCapability, 'resolve'>;
}

export type PlanContext = PrecheckContext;

export interface ToolContext extends PrecheckContext {
  /** Aborted when the user presses Stop or the call times out; long work must watch it. */
  readonly signal: AbortSignal;
  /** Machine facts read without running any command (system.info). */
  readonly system: SystemCapability;
  /** HTTP to allowed URL prefixes only (policy http.allow), with caps (http.request). */
  readonly http: HttpCapability;
  /** Commands on the policy's SSH hosts, host keys pinned (ssh.execute). */
  readonly ssh: SshCapability;
  /** Whitelisted programs without a shell, whole-tree kills, bounded capture (shell.execute/output). */
  readonly processes: ProcessCapability;
  /** The approved plan; tools with a plan act on exactly plan.targets. */
  readonly plan: ApprovedPlan;
}

export interface ToolSpec<S extends TObject> {
  /** `family.action`, lowercase words. */
  readonly name: string;
  /** Short, for the model; ko and en. Keep under the registry's token budget. */
  readonly description: Text;
  /** Extra routing words (Korean and English) for tool search; not sent with every request. */
  readonly keywords: readonly string[];
  readonly input: S;
  readonly risk: Risk;
  /** null: nothing to match (e.g. system.info); only name-level rules apply. */
  readonly subject: SubjectSpec | null;
  readonly concurrency: Concurrency;
  /**
   * Refuse, before the human is asked, what cannot run (SPEC G-PRECHECK). Judges from arguments and
   * policy only. Execution repeats the same checks: this is a courtesy, not the only line of defence.
   */
  precheck?(input: Static<S>, ctx: PrecheckContext): Promise<Failure | null> | Failure | null;
  /**
   * Expand globs and compute previews BEFORE approval, so the human sees every affected file.
   * Tools without a plan get an empty target list.
   */
  plan?(input: Static<S>, ctx: PlanContext): Promise<Plan | Failure>;
  /** Plain-language approval text ("파일 158개를 정리/2024로 옮깁니다"). */
  summarize(input: Static<S>, plan: Plan, ctx: { readonly files: FileAccess }): Text;
  /** Never throws on expected outcomes; returns a value (SPEC G-NOTHROW). The gate is its only caller. */
  execute(input: Static<S>, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * The registry stores tools with their input type erased. Methods (not function-typed properties)
 * above keep this assignment legal; the gate only calls them with schema-validated input.
 */
export type AnyTool = ToolSpec<TObject>;

const NAME = /^[a-z][a-z0-9]*\.[a-z][a-zA-Z0-9]*$/;

/**
 * Checks the declaration at definition time and fails loudly (Cline's createTool idiom): a broken
 * tool must not load, rather than misbehave at the first call.
 */
export function defineTool<S extends TObject>(spec: ToolSpec<S> & { readonly subject: TypedSubjectSpec<Static<S>> | null }): ToolSpec<S> {
  if (!NAME.test(spec.name)) throw new Error(`Tool name '${spec.name}' must be family.action`);
  if (spec.input.type !== 'object' || spec.input.additionalProperties !== false) {
    throw new Error(`Tool ${spec.name}: input schema must be an object with additionalProperties: false`);
  }
  if (!spec.description.ko.trim() || !spec.description.en.trim()) {
    throw new Error(`Tool ${spec.name}: description needs Korean and English text`);
  }
  for (const field of spec.subject?.fields ?? []) {
    if (!(field in spec.input.properties)) {
      throw new Error(`Tool ${spec.name}: subject field '${field}' is not in the input schema`);
    }
  }
  return Object.freeze(spec);
}
