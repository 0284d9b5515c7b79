import { FileAccessError, sameFingerprint, type FileAccess, type FingerprintOptions } from '../../common/file-access';
import type { BrowserCapability, BrowserOpenRequest, BrowserScreenshotRequest } from '../../common/browser-capability';
import type { DocumentCapability } from '../../common/document-capability';
import type { HttpCapability, HttpRequest } from '../../common/http-capability';
import type { ProcessCapability, ProgramCall, RunRequest } from '../../common/process-capability';
import type { SshCapability, SshDownloadRequest, SshExecuteRequest } from '../../common/ssh-capability';
import type { SystemCapability } from '../../common/system-capability';
import type { CapabilityName, Plan, PlannedTarget, ReadOnlyFileAccess } from '../../../tools/kit/define-tool';

/**
 * The capabilities a tool receives are built here, per call, from the host's (SPEC G-APPROVE:
 * "what was approved is exactly what runs" as a mechanism, not a convention each tool follows):
 *  - precheck and plan get read-only objects: the write methods do not exist on them at run time;
 *  - execute gets only the capabilities its declaration names, each scoped to the approved plan.
 * A tool that reaches past its plan is refused here, whatever its own code checks.
 */

export interface HostCapabilities {
  readonly files: FileAccess;
  readonly system: SystemCapability;
  readonly http: HttpCapability;
  readonly ssh: SshCapability;
  readonly processes: ProcessCapability;
  readonly browser: BrowserCapability;
  readonly documents: DocumentCapability;
}

/** A tool reached for something its declaration or its plan does not cover. The gate reports it as an error. */
export class CapabilityRefused extends Error {
  override readonly name = 'CapabilityRefused';
}

export function readOnlyFiles(files: FileAccess): ReadOnlyFileAccess {
  return Object.freeze({
    roots: files.roots,
    resolve: (p: string) => files.resolve(p),
    display: (p: string) => files.display(p),
    check: (p: string) => files.check(p),
    stat: (p: string) => files.stat(p),
    fingerprint: (p: string, o?: FingerprintOptions) => files.fingerprint(p, o),
    list: (p: string, o?: Parameters<FileAccess['list']>[1]) => files.list(p, o),
    glob: (p: string, o?: Parameters<FileAccess['glob']>[1]) => files.glob(p, o),
    walk: (p: string, o?: Parameters<FileAccess['walk']>[1]) => files.walk(p, o),
    readBytes: (p: string, o?: Parameters<FileAccess['readBytes']>[1]) => files.readBytes(p, o),
    trashList: () => files.trashList(),
    // Issue 14 class 3: the tool may say how many entries the policy's path veto kept out.
    skippedByPolicy: () => files.skippedByPolicy?.() ?? 0,
    vetoed: (p: string) => files.vetoed?.(p) ?? false,
  });
}

/** What precheck and plan may use: checks without effects (no write, no request, no process). */
export function readOnlyCapabilities(host: HostCapabilities) {
  const { http, ssh, processes, browser } = host;
  return {
    files: readOnlyFiles(host.files),
    http: Object.freeze({ allowedPrefixes: http.allowedPrefixes, check: (r: Parameters<HttpCapability['check']>[0]) => http.check(r) }),
    browser: Object.freeze({ allowedPrefixes: browser.allowedPrefixes, check: (u: string) => browser.check(u) }),
    ssh: Object.freeze({ check: (h: string, c?: string) => ssh.check(h, c), endpoint: (h: string) => ssh.endpoint(h) }),
    processes: Object.freeze({ resolve: (c: string, call?: ProgramCall) => processes.resolve(c, call) }),
    // Parsing bytes the tool already read has no effect outside the parse thread.
    documents: onlyDocuments(host.documents),
  };
}

/**
 * File access for execute: every read a read tool may make (the host confines those to the roots),
 * and changes only to the plan's targets, each in the state that was approved. The state is checked
 * again right at the operation (the gate checked it just before the tool started), so a file changed
 * in between is refused with CHANGED and left alone.
 */
export function planScopedFiles(files: FileAccess, plan: Plan): FileAccess {
  const byPath = new Map<string, PlannedTarget>();
  for (const t of plan.targets) byPath.set(files.resolve(t.path), t);
  const planned = (given: string): PlannedTarget => {
    const target = byPath.get(files.resolve(given));
    if (!target) throw new FileAccessError('FORBIDDEN', given, 'not among the approved targets');
    return target;
  };
  const unchanged = async (target: PlannedTarget, given: string): Promise<void> => {
    const content = target.fingerprint?.sha256 !== undefined;
    const now = await files.fingerprint(target.path, content ? { content } : {});
    if (!sameFingerprint(target.fingerprint, now)) throw new FileAccessError('CHANGED', given, 'changed since it was approved');
  };
  const transfer = async (from: string, to: string): Promise<PlannedTarget> => {
    const target = planned(from);
    if (target.to === undefined || files.resolve(target.to) !== files.resolve(to)) {
      throw new FileAccessError('FORBIDDEN', to, 'not the approved destination');
    }
    await unchanged(target, from);
    return target;
  };
  return Object.freeze({
    ...readOnlyFiles(files),
    readTree: (p: string, o: Parameters<FileAccess['readTree']>[1]) => files.readTree(p, o),
    async writeAtomic(p: string, data: Uint8Array | string, o: { readonly overwrite: boolean }) {
      const target = planned(p);
      await unchanged(target, p);
      return files.writeAtomic(p, data, o);
    },
    async mkdir(p: string) {
      // Recursive and idempotent: a planned folder that exists by now is fine.
      planned(p);
      return files.mkdir(p);
    },
    async move(from: string, to: string, o?: { readonly overwrite?: boolean }) {
      await transfer(from, to);
      return files.move(from, to, o);
    },
    async copy(from: string, to: string, o?: { readonly overwrite?: boolean }) {
      await transfer(from, to);
      return files.copy(from, to, o);
    },
    async trash(p: string) {
      await unchanged(planned(p), p);
      return files.trash(p);
    },
    async restore(trashId: string, o?: { readonly to?: string }) {
      const target = plan.targets.find((t) => t.trashId === trashId);
      if (!target) throw new FileAccessError('FORBIDDEN', trashId, 'not an approved trash entry');
      // Only to the approved place: the target's path is where the approval said it goes back.
      if (o?.to === undefined || files.resolve(o.to) !== files.resolve(target.path)) {
        throw new FileAccessError('FORBIDDEN', o?.to ?? trashId, 'not the approved destination');
      }
      await unchanged(target, o.to);
      return files.restore(trashId, o);
    },
  });
}

/** Runs only the program the plan names, and only the file that was approved (its real path and hash). */
export function planScopedProcesses(processes: ProcessCapability, plan: Plan): ProcessCapability {
  const program = plan.program;
  const scoped = <R extends Omit<RunRequest, 'signal'>>(request: R): R => {
    if (!program || request.command !== program.command) {
      throw new CapabilityRefused(`The approved plan runs ${program ? `'${program.command}'` : 'no program'}, not '${request.command}'`);
    }
    return { ...request, expected: { realPath: program.realPath, sha256: program.sha256 } };
  };
  return Object.freeze({
    resolve: (c: string, call?: ProgramCall) => processes.resolve(c, call),
    run: (r: RunRequest) => processes.run(scoped(r)),
    start: (r: Omit<RunRequest, 'signal'>) => processes.start(scoped(r)),
    // Background tasks belong to the session; reading or stopping one changes nothing on disk.
    read: (id: string) => processes.read(id),
    stop: (id: string) => processes.stop(id),
  });
}

/** Requests only the planned URL (redirects stay the host's business: never to another host). */
export function planScopedHttp(http: HttpCapability, plan: Plan): HttpCapability {
  const url = plan.network?.kind === 'url' ? plan.network.url : undefined;
  return Object.freeze({
    allowedPrefixes: http.allowedPrefixes,
    check: (r: Parameters<HttpCapability['check']>[0]) => http.check(r),
    request(r: HttpRequest) {
      if (url === undefined || r.url !== url) throw new CapabilityRefused(`The approved plan requests ${url ?? 'no URL'}, not ${r.url}`);
      return http.request(r);
    },
  });
}

/** Opens only the planned URL; what the page loads is held to the allowlist by the host. */
export function planScopedBrowser(browser: BrowserCapability, plan: Plan): BrowserCapability {
  const url = plan.network?.kind === 'url' ? plan.network.url : undefined;
  const admit = (asked: string) => {
    if (url === undefined || asked !== url) throw new CapabilityRefused(`The approved plan opens ${url ?? 'no URL'}, not ${asked}`);
  };
  return Object.freeze({
    allowedPrefixes: browser.allowedPrefixes,
    check: (u: string) => browser.check(u),
    open(r: BrowserOpenRequest) {
      admit(r.url);
      return browser.open(r);
    },
    screenshot(r: BrowserScreenshotRequest) {
      admit(r.url);
      return browser.screenshot(r);
    },
  });
}

/** Talks only to the planned SSH host; a download writes only a planned target. */
export function planScopedSsh(ssh: SshCapability, plan: Plan, files: FileAccess): SshCapability {
  const host = plan.network?.kind === 'ssh' ? plan.network.host : undefined;
  const admit = (name: string) => {
    if (host === undefined || name !== host) throw new CapabilityRefused(`The approved plan connects to ${host ?? 'no host'}, not ${name}`);
  };
  return Object.freeze({
    check: (h: string, c?: string) => ssh.check(h, c),
    endpoint: (h: string) => ssh.endpoint(h),
    execute(r: SshExecuteRequest) {
      admit(r.host);
      return ssh.execute(r);
    },
    async download(r: SshDownloadRequest) {
      admit(r.host);
      const target = plan.targets.find((t) => files.resolve(t.path) === files.resolve(r.localPath));
      if (!target) throw new FileAccessError('FORBIDDEN', r.localPath, 'not among the approved targets');
      const now = await files.fingerprint(target.path);
      if (!sameFingerprint(target.fingerprint, now)) throw new FileAccessError('CHANGED', r.localPath, 'changed since it was approved');
      return ssh.download(r);
    },
  });
}

/** The parser's two methods and nothing else of the host object (its close, its state). */
function onlyDocuments(documents: DocumentCapability): DocumentCapability {
  return Object.freeze({
    parse: (r: Parameters<DocumentCapability['parse']>[0]) => documents.parse(r),
    openPdf: (r: Parameters<DocumentCapability['openPdf']>[0]) => documents.openPdf(r),
  });
}

/** Stands in for a capability the tool did not declare: any use is refused. */
function absent<T extends object>(name: CapabilityName, tool: string): T {
  return new Proxy({} as T, {
    get(_target, key) {
      if (key === 'then') return undefined; // not a thenable: `await ctx.files` must not call into it
      return () => {
        throw new CapabilityRefused(`${tool} did not declare the '${name}' capability (${String(key)})`);
      };
    },
  });
}

/** The capabilities of one execute: the declared ones, scoped to the approved plan; the rest absent. */
export function executionCapabilities(host: HostCapabilities, declared: readonly CapabilityName[], plan: Plan, tool: string): HostCapabilities {
  const has = (name: CapabilityName) => declared.includes(name);
  return {
    files: has('files') ? planScopedFiles(host.files, plan) : absent('files', tool),
    processes: has('processes') ? planScopedProcesses(host.processes, plan) : absent('processes', tool),
    http: has('http') ? planScopedHttp(host.http, plan) : absent('http', tool),
    ssh: has('ssh') ? planScopedSsh(host.ssh, plan, host.files) : absent('ssh', tool),
    system: has('system') ? host.system : absent('system', tool),
    browser: has('browser') ? planScopedBrowser(host.browser, plan) : absent('browser', tool),
    documents: has('documents') ? onlyDocuments(host.documents) : absent('documents', tool),
  };
}
