/**
 * The two ways a call is stopped from outside: its deadline passes, or the user presses Stop
 * (the AbortSignal). Every waiting step of an SSH call listens here, so a stop closes the
 * channel and the connection wherever the call happens to be (connecting, running, transferring).
 */
export type StopReason = 'timeout' | 'cancelled';

export class CallStopped extends Error {
  override readonly name = 'CallStopped';
  constructor(readonly reason: StopReason) {
    super(`SSH call stopped: ${reason}`);
  }
}

export class CallLimits {
  private stopReason: StopReason | null = null;
  private readonly listeners = new Set<(reason: StopReason) => void>();
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => this.stop('cancelled');
  private readonly startedAt = performance.now();

  constructor(
    readonly timeoutMs: number,
    private readonly signal: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    if (signal.aborted) this.stopReason = 'cancelled';
    else signal.addEventListener('abort', this.onAbort, { once: true });
  }

  get reason(): StopReason | null {
    return this.stopReason;
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  /** Calls `listener` once when the call is stopped (at once if it already is). Returns an unsubscribe. */
  onStop(listener: (reason: StopReason) => void): () => void {
    if (this.stopReason !== null) {
      listener(this.stopReason);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Settles like `promise`, or rejects with CallStopped as soon as the call is stopped. */
  race<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const unsubscribe = this.onStop((reason) => reject(new CallStopped(reason)));
      promise.then(
        (value) => {
          unsubscribe();
          resolve(value);
        },
        (error: unknown) => {
          unsubscribe();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.onAbort);
    this.listeners.clear();
  }

  private stop(reason: StopReason): void {
    if (this.stopReason !== null) return;
    this.stopReason = reason;
    clearTimeout(this.timer);
    for (const listener of [...this.listeners]) listener(reason);
    this.listeners.clear();
  }
}
