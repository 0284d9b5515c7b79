import type { Concurrency } from '../../common/domain';

/**
 * The gate honours each tool's declared concurrency (SPEC §5): `parallel-safe` calls run together,
 * an `exclusive` call runs alone. A reader-writer lock around execute only (never around approval:
 * a human thinking about one call must not hold up reads). Writers are served in arrival order and
 * block later readers, so a stream of reads cannot starve a move.
 */
export class ToolScheduler {
  private running = 0;
  private exclusiveRunning = false;
  private readonly waiting: { readonly exclusive: boolean; readonly start: () => void }[] = [];

  async run<T>(concurrency: Concurrency, work: () => Promise<T>): Promise<T> {
    const exclusive = concurrency === 'exclusive';
    await this.acquire(exclusive);
    try {
      return await work();
    } finally {
      this.release(exclusive);
    }
  }

  private canStart(exclusive: boolean): boolean {
    if (this.exclusiveRunning) return false;
    return exclusive ? this.running === 0 : !this.waiting.some((w) => w.exclusive);
  }

  private acquire(exclusive: boolean): Promise<void> {
    if (this.waiting.length === 0 && this.canStart(exclusive)) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push({ exclusive, start: resolve }));
  }

  private take(exclusive: boolean): void {
    this.running++;
    if (exclusive) this.exclusiveRunning = true;
  }

  private release(exclusive: boolean): void {
    this.running--;
    if (exclusive) this.exclusiveRunning = false;
    // Start waiters in order: one exclusive alone, or every reader up to the next writer.
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.exclusiveRunning || (next.exclusive && this.running > 0)) return;
      this.waiting.shift();
      this.take(next.exclusive);
      next.start();
      if (next.exclusive) return;
    }
  }
}
