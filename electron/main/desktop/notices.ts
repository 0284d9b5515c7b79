import type { AppNotice } from '../../common/ipc-contract';
import type { Text } from '../../common/i18n';
import type { EmitEvent } from './emit';

/** A session that misbehaves repeatedly (a server restarting) must not grow this without bound. */
const KEEP = 50;

/**
 * What the session reports on its own (MCP servers that could not start, stopped or restarted):
 * kept for a window that opens later (the servers start with the session, before the page
 * loads) and pushed to one that is open. The ledger keeps the full record.
 */
export class SessionNotices {
  readonly #kept: AppNotice[] = [];
  #next = 1;

  constructor(private readonly emit: EmitEvent) {}

  add(text: Text): void {
    const notice: AppNotice = { id: this.#next++, at: new Date().toISOString(), text };
    this.#kept.push(notice);
    if (this.#kept.length > KEEP) this.#kept.shift();
    this.emit('app:notice', notice);
  }

  list(): readonly AppNotice[] {
    return [...this.#kept];
  }
}
