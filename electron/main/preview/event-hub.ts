import type { ServerResponse } from 'node:http';
import type { IpcEventName, IpcEvents } from '../../common/ipc-contract';

/**
 * The preview's stand-in for webContents.send: every contract event goes to each open
 * event stream (Server-Sent Events) of the page. Created before the core, because the core's
 * broker needs somewhere to send approval requests from its first call on.
 */
export class EventHub {
  readonly #streams = new Set<ServerResponse>();

  readonly emit = <E extends IpcEventName>(event: E, payload: IpcEvents[E]): void => {
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const stream of this.#streams) stream.write(frame);
  };

  attach(stream: ServerResponse): void {
    stream.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    stream.write(': baram preview events\n\n');
    this.#streams.add(stream);
    stream.on('close', () => this.#streams.delete(stream));
  }

  close(): void {
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
  }
}
