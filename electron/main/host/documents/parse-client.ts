import { Worker } from 'node:worker_threads';
import {
  DocumentParseFailed,
  type DocumentCapability,
  type DocumentParseRequest,
  type OpenedPdf,
  type ParsedDocument,
  type PdfOpenFailure,
} from '../../../common/document-capability';
import type { ParseReply, ParseRequest } from './parse-worker';

/**
 * The host side of the parse threads (docs/2026-12-03-document-parse-worker.md). Each document is
 * parsed in a worker thread of its own for as long as the parse lasts: nobody else's parse shares
 * it, so ending the thread (worker.terminate(), the only way to stop a synchronous parse) stops
 * exactly that document. A thread that finished cleanly waits a while for the next document
 * (starting one and loading the format library costs more than most parses: see the doc), also
 * for the next session of this process; one that was stopped, ran out of memory or failed is
 * never used again.
 */

/**
 * Heap of one parse thread. A 300-page report's tree takes ~200 MB in mammoth; a document that
 * needs more than this is made to exhaust memory, and only its thread ends (Baram goes on).
 */
export const PARSE_WORKER_HEAP_MB = 1024;
/** How long a finished thread waits for the next document before it ends. */
const IDLE_MS = 30_000;
/** Finished threads kept waiting; more parses at once start threads of their own. */
const MAX_IDLE = 1;

/** The worker file: the bundled parse-worker.js beside the built module, or the source entry under tsx. */
export function workerEntry(): URL {
  const here = import.meta.url;
  // The built app (electron.vite.config.ts) and CLI (scripts/build-cli.mjs) put parse-worker.js
  // beside the module this code was bundled into (standaloneWorker in electron.vite.config.ts).
  const name = here.endsWith('.ts') ? SOURCE_ENTRY : BUNDLED_ENTRY;
  return new URL(name, here);
}
const BUNDLED_ENTRY = './parse-worker.js';
const SOURCE_ENTRY = './parse-worker-source.mjs';

type Ended = { readonly memory: boolean };
type Asked = { readonly reply: ParseReply } | { readonly ended: Ended } | { readonly aborted: true };
type Ask = ParseRequest extends infer R ? (R extends ParseRequest ? Omit<R, 'id'> : never) : never;

/** Every parse thread of this process that has not exited yet (tests and the report ask). */
const alive = new Set<ParseThread>();

/**
 * Finished threads waiting for a document, by heap limit. Shared by the parsers of this process:
 * a thread that finished cleanly holds nothing of its document, and the next session (a policy
 * reload, the next test) need not load the libraries again.
 */
const waiting = new Map<number, ParseThread[]>();

/** The thread ids (worker.threadId) of the parse threads alive now, and of those working on a request. */
export function parseThreads(): { readonly alive: readonly number[]; readonly working: readonly number[] } {
  const all = [...alive];
  return { alive: all.map((t) => t.threadId), working: all.filter((t) => t.working).map((t) => t.threadId) };
}

class ParseThread {
  readonly ended: Promise<Ended>;
  private readonly worker: Worker;
  private running = true;
  private nextId = 1;
  private pending: { readonly id: number; readonly resolve: (asked: Asked) => void } | null = null;
  idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(entry: URL, heapMb: number) {
    this.worker = new Worker(entry, {
      name: 'baram-document-parse',
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      // Nothing of the user's environment: a parser has no use for it.
      env: {},
    });
    alive.add(this);
    let memory = false;
    this.worker.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') memory = true;
    });
    this.ended = new Promise((resolve) => {
      this.worker.once('exit', () => {
        this.running = false;
        alive.delete(this);
        clearTimeout(this.idleTimer);
        const ended = { memory };
        this.pending?.resolve({ ended });
        this.pending = null;
        resolve(ended);
      });
    });
    this.worker.on('message', (reply: ParseReply) => {
      if (this.pending?.id !== reply.id) return;
      const { resolve } = this.pending;
      this.pending = null;
      resolve({ reply });
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  get threadId(): number {
    return this.worker.threadId;
  }

  /** A request is in flight (its answer not yet back). */
  get working(): boolean {
    return this.pending !== null;
  }

  /** One request; its answer, the thread's end, or the signal's abort (which ends the thread). */
  ask(request: Ask, signal: AbortSignal, transfer: ArrayBuffer[] = []): Promise<Asked> {
    if (!this.running) return this.ended.then((ended) => ({ ended }));
    if (signal.aborted) {
      void this.end();
      return Promise.resolve({ aborted: true });
    }
    const id = this.nextId++;
    return new Promise<Asked>((resolve) => {
      const onAbort = () => {
        this.pending = null;
        void this.end();
        resolve({ aborted: true });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        id,
        resolve: (asked) => {
          signal.removeEventListener('abort', onAbort);
          resolve(asked);
        },
      };
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  /** Resolves once the thread is gone (its CPU and memory with it). */
  end(): Promise<Ended> {
    if (this.running) void this.worker.terminate();
    return this.ended;
  }

  /** Waiting threads do not keep the process (a CLI call) alive. */
  idle(on: boolean): void {
    if (on) this.worker.unref();
    else this.worker.ref();
  }
}

export interface DocumentParserOptions {
  /** Heap of each parse thread (default PARSE_WORKER_HEAP_MB); tests of the memory limit give less. */
  readonly heapMb?: number;
}

export interface DocumentParser extends DocumentCapability {
  /** Threads parsing now, and finished ones waiting for the next document. */
  state(): { readonly busy: number; readonly idle: number };
  /** Ends the threads parsing now (the session closes); waiting ones stay for the next session, then end by themselves. */
  close(): Promise<void>;
}

export function createDocumentParser(options: DocumentParserOptions = {}): DocumentParser {
  const heapMb = options.heapMb ?? PARSE_WORKER_HEAP_MB;
  const entry = workerEntry();
  const idle = waiting.get(heapMb) ?? [];
  waiting.set(heapMb, idle);
  const busy = new Set<ParseThread>();
  let closed = false;

  const acquire = (): ParseThread => {
    let thread = idle.pop();
    while (thread !== undefined && !thread.isRunning) thread = idle.pop();
    if (thread) {
      clearTimeout(thread.idleTimer);
      thread.idle(false);
    } else {
      thread = new ParseThread(entry, heapMb);
    }
    busy.add(thread);
    return thread;
  };

  /** A thread back after its document: kept for the next one if it finished cleanly, else ended. */
  const release = (thread: ParseThread, clean: boolean): void => {
    busy.delete(thread);
    if (!clean || closed || !thread.isRunning || idle.length >= MAX_IDLE) {
      void thread.end();
      return;
    }
    thread.idle(true);
    thread.idleTimer = setTimeout(() => {
      const at = idle.indexOf(thread);
      if (at !== -1) idle.splice(at, 1);
      void thread.end();
    }, IDLE_MS);
    thread.idleTimer.unref();
    idle.push(thread);
  };

  /** The thread's end as a failure: its memory limit, or (a crash) a document it could not read. */
  const endedFailure = (ended: Ended) => (ended.memory ? ({ reason: 'memory', limitMb: heapMb } as const) : ({ reason: 'damaged' } as const));

  /**
   * Its own copy, transferred: the caller's buffer stays whole, and nothing is copied twice. Not
   * bytes.slice(): on a Buffer that is a view of the same memory (for a small file, Node's shared
   * pool), and transferring it would take the memory from under the caller.
   */
  const ownCopy = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;

  return {
    async parse(request: DocumentParseRequest): Promise<ParsedDocument> {
      if (request.signal.aborted || closed) return { ok: false, reason: 'stopped' };
      const thread = acquire();
      const bytes = ownCopy(request.bytes);
      const asked = await thread.ask({ op: 'parse', kind: request.kind, bytes }, request.signal, [bytes]);
      if ('aborted' in asked) {
        busy.delete(thread);
        await thread.end();
        return { ok: false, reason: 'stopped' };
      }
      if ('ended' in asked) {
        busy.delete(thread);
        return { ok: false, ...endedFailure(asked.ended) };
      }
      const result = asked.reply.op === 'parse' ? asked.reply.result : ({ ok: false, reason: 'damaged' } as const);
      release(thread, result.ok);
      return result;
    },

    async openPdf(request): Promise<OpenedPdf | PdfOpenFailure> {
      if (request.signal.aborted || closed) return 'stopped';
      const { signal } = request;
      const thread = acquire();
      const bytes = ownCopy(request.bytes);
      const stop = (asked: Asked): PdfOpenFailure | null => {
        if ('aborted' in asked) return 'stopped';
        if ('ended' in asked) return asked.ended.memory ? { memoryLimitMb: heapMb } : 'damaged';
        return null;
      };
      const opened = await thread.ask({ op: 'pdf-open', bytes }, signal, [bytes]);
      const failed = stop(opened);
      if (failed !== null) {
        busy.delete(thread);
        await thread.end();
        return failed;
      }
      const reply = (opened as { reply: ParseReply }).reply;
      if (reply.op !== 'pdf-open' || typeof reply.result === 'string') {
        release(thread, true);
        return reply.op === 'pdf-open' && typeof reply.result === 'string' ? reply.result : 'damaged';
      }
      let closedPdf = false;
      return {
        pages: reply.result.pages,
        async pageText(page: number): Promise<string> {
          if (closedPdf) throw new DocumentParseFailed({ reason: 'stopped' });
          const asked = await thread.ask({ op: 'pdf-page', page }, signal);
          if ('aborted' in asked) throw new DocumentParseFailed({ reason: 'stopped' });
          if ('ended' in asked) throw new DocumentParseFailed(endedFailure(asked.ended));
          const r = asked.reply;
          if (r.op !== 'pdf-page') throw new DocumentParseFailed({ reason: 'damaged' });
          if ('failed' in r) throw new DocumentParseFailed(r.failed === 'encrypted' ? { reason: 'encrypted' } : { reason: 'damaged' });
          return r.text;
        },
        async close(): Promise<void> {
          if (closedPdf) return;
          closedPdf = true;
          if (!thread.isRunning || signal.aborted) {
            busy.delete(thread);
            await thread.end();
            return;
          }
          const asked = await thread.ask({ op: 'pdf-close' }, signal);
          release(thread, 'reply' in asked);
        },
      };
    },

    state: () => ({ busy: busy.size, idle: idle.length }),

    async close(): Promise<void> {
      closed = true;
      const all = [...busy];
      busy.clear();
      await Promise.all(all.map((t) => t.end()));
    },
  };
}
