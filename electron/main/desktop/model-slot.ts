import type { ModelBackend } from '../model';

export interface DesktopModel {
  readonly backend: ModelBackend;
  /** How the model is named in the conversation list (URL or file). */
  readonly label: string;
}

/**
 * The model the window's chat uses now. The settings screen can replace it between requests; the
 * chat reads it at each send, so a run keeps the backend it started with.
 */
export class ModelSlot {
  #current: DesktopModel | null;

  constructor(initial: DesktopModel | null) {
    this.#current = initial;
  }

  get current(): DesktopModel | null {
    return this.#current;
  }

  /** Puts `next` in place and closes the backend it replaces (an embedded engine frees its memory). */
  async replace(next: DesktopModel): Promise<void> {
    const previous = this.#current;
    this.#current = next;
    if (previous && previous.backend !== next.backend) await previous.backend.close?.();
  }

  async close(): Promise<void> {
    await this.#current?.backend.close?.();
  }
}
