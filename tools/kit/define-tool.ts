import type { Static, TObject } from '@sinclair/typebox';
import type { Concurrency, Risk, SubjectKind } from '../../electron/common/domain';
import type { FileAccess, Fingerprint } from '../../electron/common/file-access';
import type { Lang, Text } from '../../electron/common/i18n';
import type { ToolResult } from '../../electron/common/tool-result';
import type { BrowserCapability } from '../../electron/common/browser-capability';
import type { DocumentCapability } from '../../electron/common/document-capability';
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
  /**
   * State at planning time; null = did not exist (a new file to write, a folder to create). Take it
   * with `{ content: true }` where the approval shows content (edits, overwrites): the gate then
   * re-hashes the file before it runs the tool.
   */
  readonly fingerprint: Fingerprint | null;
  /** filesystem.restore: the trash entry that is put back at `path`. */
  readonly trashId?: string;
  /**
   * A folder acted on as a whole (filesystem.delete): how many entries below it the plan lists as
   * targets of their own. Only if all of them are still as approved may the folder go as one.
   */
  readonly contains?: number;
}

/** The program a command tool will run, as resolved at planning time; execution runs exactly this file. */
export interface PlannedProgram {
  /** The bare name as asked ('git'): the gate resolves it again before the tool runs. */
  readonly command: string;
  readonly path: string;
  readonly realPath: string;
  readonly sha256: string;
}

/** Where a network tool goes; the approval shows it, and the tool's network capability reaches nothing else. */
export type PlannedDestination =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'ssh'; readonly host: string; readonly address: string };

export interface Plan {
  readonly targets: readonly PlannedTarget[];
  readonly program?: PlannedProgram;
  /** Diff or content preview shown in the approval dialog (edits, overwrites). */
  readonly preview?: string;
  /** Host or URL for network tools, shown prominently (the text); `network` binds the capability. */
  readonly destination?: string;
  readonly network?: PlannedDestination;
}

declare const approvedBrand: unique symbol;
/**
 * A plan a human (or an allow rule) approved. Only the gate constructs one (DESIGN idiom 7); the
 * brand cannot be produced without a cast, and the architecture test forbids that cast elsewhere.
 */
export type ApprovedPlan = Plan & {
  readonly [approvedBrand]: true;
  /** SHA-256 over the canonical request and the plan: what was approved is what runs. */
  readonly digest: string;
};

/**
 * What a tool's execute may reach besides its arguments. Each tool declares the capabilities it
 * needs and receives only those; every one of them is scoped to the approved plan by the gate
 * (files: reads inside the roots, changes only to planned targets; processes: only the planned
 * program; http/ssh: only the planned destination).
 */
export type CapabilityName = 'files' | 'processes' | 'http' | 'ssh' | 'system' | 'browser' | 'documents';

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

/**
 * The file access precheck and plan get: reading and checking only. The gate hands over an object
 * that has no other methods at run time, not only in the types.
 */
export type ReadOnlyFileAccess = Pick<FileAccess, 'roots' | 'resolve' | 'display' | 'check' | 'stat' | 'fingerprint' | 'list' | 'glob' | 'walk' | 'readBytes' | 'trashList'>;

export interface PrecheckContext {
  readonly lang: Lang;
  readonly files: ReadOnlyFileAccess;
  readonly policy: ToolPolicyView;
  /** The HTTP allowlist checks, without network access (precheck and plan may not send anything). */
  readonly http: Pick<HttpCapability, 'allowedPrefixes' | 'check'>;
  /** The browser's URL checks (the same allowlist), without starting a browser. */
  readonly browser: Pick<BrowserCapability, 'allowedPrefixes' | 'check'>;
  /** The SSH host and command checks, without network access. */
  readonly ssh: Pick<SshCapability, 'check' | 'endpoint'>;
  /** Finds a whitelisted program in the trusted folders, without running it. */
  readonly processes: Pick<ProcessCapability, 'resolve'>;
  /** Office documents parsed in the host's parse thread (no effects: document.word.write's diff preview reads the old file). */
  readonly documents: DocumentCapability;
}

export type PlanContext = PrecheckContext;

/**
 * What execute gets. A capability the tool did not declare is absent at run time (every method
 * refuses), and each declared one reaches only what the approved plan names.
 */
export interface ToolContext {
  readonly lang: Lang;
  readonly policy: ToolPolicyView;
  /** Aborted when the user presses Stop or the call times out; long work must watch it. */
  readonly signal: AbortSignal;
  /** Reads inside the roots; writes, moves, copies, deletes and restores of the plan's targets only. */
  readonly files: FileAccess;
  /** Machine facts read without running any command (system.info). */
  readonly system: SystemCapability;
  /** HTTP to the planned URL only (itself on the policy's http.allow), with caps (http.request). */
  readonly http: HttpCapability;
  /** A headless browser on the planned URL only; the page's own requests held to http.allow (browser.open, browser.screenshot). */
  readonly browser: BrowserCapability;
  /** The planned SSH host only, host keys pinned (ssh.execute, ssh.download). */
  readonly ssh: SshCapability;
  /** The planned program only, without a shell, whole-tree kills, bounded capture (shell.execute). */
  readonly processes: ProcessCapability;
  /** Word, HWP and PDF parsed in a worker thread that Stop and the time limit end (document.*, search.text). */
  readonly documents: DocumentCapability;
  /** The approved plan; tools with a plan act on exactly plan.targets. */
  readonly plan: ApprovedPlan;
  /** Most characters of output the caller wants back for this call (the model's context decides). */
  readonly outputBudget: number;
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
  /** The capabilities execute uses; it receives only these (see CapabilityName). */
  readonly capabilities: readonly CapabilityName[];
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
  summarize(input: Static<S>, plan: Plan, ctx: { readonly files: ReadOnlyFileAccess }): Text;
  /** Never throws on expected outcomes; returns a value (SPEC G-NOTHROW). The gate is its only caller. */
  execute(input: Static<S>, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * The registry stores tools with their input type erased. Methods (not function-typed properties)
 * above keep this assignment legal; the gate only calls them with schema-validated input.
 */
export type AnyTool = ToolSpec<TObject>;

/** `family.action`, or `family.kind.action` where a family has kinds (document.pdf.read, SPEC §5). */
const NAME = /^[a-z][a-z0-9]*(\.[a-z][a-zA-Z0-9]*){1,2}$/;

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
