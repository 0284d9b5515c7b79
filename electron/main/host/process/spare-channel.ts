import { openOutputChannel, type OutputChannel, type OutputChannelSource, type OutputSink, type OutputTransport } from './output-channel';

/**
 * One output channel opened ahead of need. A socket channel takes a folder, a listen, a connect, an
 * accept and a removal: ≈1–2 ms on this 2-core VM, next to ≈5 ms for starting and ending `true`
 * itself. The host keeps one ready, so a command starts on a channel opened while the previous one
 * ran (or while the model was thinking), and the next is opened while this one runs.
 *
 * A spare is safe to keep: its socket name is removed as soon as the pair is connected, so nobody
 * else can join it, and nothing holds its child end, so nothing can write to it before it is taken.
 * It does not keep the process alive (unref) and close() destroys it.
 */
export class SpareOutputChannels implements OutputChannelSource {
  private spare: Promise<{ channel: OutputChannel; deliverTo: (sink: OutputSink) => void } | null> | null = null;
  private closed = false;

  constructor(private readonly transport: OutputTransport) {}

  async open(sink: OutputSink): Promise<OutputChannel> {
    // Pipes are created with the child; there is nothing to prepare.
    if (this.transport !== 'socket' || this.closed) return openOutputChannel(this.transport, sink);
    // Taken before the first await: two runs starting together never share one spare.
    const spare = this.spare;
    this.spare = null;
    // After this turn of the event loop: the command's own start comes first.
    setImmediate(() => this.prepareNext());
    const ready = spare ? await spare : null;
    if (ready === null) return openOutputChannel(this.transport, sink);
    ready.deliverTo(sink);
    ready.channel.ref();
    return ready.channel;
  }

  close(): void {
    this.closed = true;
    const spare = this.spare;
    this.spare = null;
    void spare?.then((ready) => {
      ready?.channel.discard();
    });
  }

  private prepareNext(): void {
    if (this.spare !== null || this.closed) return;
    let target: OutputSink = () => undefined;
    this.spare = openOutputChannel(this.transport, (buffer, length) => target(buffer, length)).then(
      (channel) => {
        channel.unref();
        // Closed while it was being opened: nobody will take it.
        if (this.closed) {
          channel.discard();
          return null;
        }
        return { channel, deliverTo: (sink: OutputSink) => (target = sink) };
      },
      // No temp folder now: the command that takes this spare opens its own and reports why not.
      () => null,
    );
  }
}
