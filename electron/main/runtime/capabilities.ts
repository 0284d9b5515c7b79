import { homedir } from 'node:os';
import { createFileAccess } from '../host/files';
import type { DocumentTextStore } from '../host/documents/text-cache';
import { createBrowserHost } from '../host/browser';
import { createDocumentParser } from '../host/documents/parse-client';
import { createHttpClient } from '../host/http';
import { createProcessHost, programPathConfinement } from '../host/process';
import { createSshClient, identityFromFile } from '../host/ssh';
import { createSystemInfo } from '../host/system';
import type { EffectivePolicy, PermissionEnv } from '../policy/types';

/** Largest file ssh.download fetches (not yet a policy setting). */
const SSH_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

export interface CapabilityOptions {
  readonly policy: EffectivePolicy;
  readonly roots: readonly string[];
  readonly trashDir: string;
  readonly protectedPaths: readonly string[];
  readonly home?: string;
  /** The session's cache of documents' extracted texts (search.text); absent: none is kept. */
  readonly documentStore?: DocumentTextStore;
  /** Heap of each document parse thread (default PARSE_WORKER_HEAP_MB). */
  readonly documentHeapMb?: number;
}

/**
 * The host capabilities of one session, built from the effective policy: the session hands them to
 * the gate, and `baram policy check` hands them to the precheck of the policy's embedded tests, so
 * both judge with the same confinement (issue 15, item 10).
 */
export async function createHostCapabilities(options: CapabilityOptions) {
  const home = options.home ?? homedir();
  const { policy, protectedPaths } = options;
  const files = await createFileAccess({
    roots: [...options.roots],
    trashDir: options.trashDir,
    protectedPaths: [...protectedPaths],
    home,
    ...(options.documentStore ? { documentStore: options.documentStore } : {}),
  });
  const permissionEnv: PermissionEnv = { roots: files.roots, home, platform: process.platform, protectedPaths };
  const system = createSystemInfo(files.roots);
  const http = createHttpClient({ allow: policy.policy.http.allow });
  // The same allowlist as http.request: a page, and everything it loads, must be under http.allow.
  const executablePath = policy.policy.browser?.executablePath;
  const browser = createBrowserHost({ allow: policy.policy.http.allow, ...(executablePath !== undefined ? { executablePath } : {}) });
  const ssh = createSshClient({
    hosts: policy.policy.ssh.hosts,
    identityFor: async (_name, host) => (host.identityFile ? identityFromFile(host.identityFile) : null),
    maxCaptureBytes: policy.policy.shell.maxCaptureBytes,
    maxDownloadBytes: SSH_MAX_DOWNLOAD_BYTES,
  });
  // Path arguments of program grammars and git repositories are held to the file tools' confinement
  // and to the deny rules a filesystem.read of them would meet.
  const processes = createProcessHost({ shell: policy.policy.shell, paths: programPathConfinement(files, policy, permissionEnv) });
  // Word, HWP and PDF are parsed in worker threads, never on the thread of the gate and the window.
  const documents = createDocumentParser(options.documentHeapMb !== undefined ? { heapMb: options.documentHeapMb } : {});
  return { capabilities: { files, system, http, ssh, processes, browser, documents }, permissionEnv };
}
