/**
 * Reasoning left in the content: Qwen3 / DeepSeek-R1 style `<think>…</think>` at the start of an
 * answer, when the server does not split it out (llama-server `--reasoning-format none`, older
 * Ollama `/v1`, a template the server does not know). It goes to `reasoning`, never to the user's
 * text and never into the action JSON of a constrained answer.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export class ThinkSplitter {
  /** `after`: the block closed; whitespace before the answer is dropped. */
  private state: 'start' | 'in' | 'after' | 'out' = 'start';
  private buffer = '';

  push(delta: string): { reasoning: string; text: string } {
    if (this.state === 'out') return { reasoning: '', text: delta };
    if (this.state === 'after') {
      const text = delta.replace(/^\s+/, '');
      if (text) this.state = 'out';
      return { reasoning: '', text };
    }
    this.buffer += delta;
    if (this.state === 'start') {
      const lead = this.buffer.trimStart();
      if (lead.length < OPEN.length && OPEN.startsWith(lead)) return { reasoning: '', text: '' };
      if (!lead.startsWith(OPEN)) {
        this.state = 'out';
        const text = this.buffer;
        this.buffer = '';
        return { reasoning: '', text };
      }
      this.state = 'in';
      this.buffer = lead.slice(OPEN.length);
    }
    const close = this.buffer.indexOf(CLOSE);
    if (close >= 0) {
      const reasoning = this.buffer.slice(0, close);
      const text = this.buffer.slice(close + CLOSE.length).replace(/^\s+/, '');
      this.buffer = '';
      this.state = text ? 'out' : 'after';
      return { reasoning, text };
    }
    // Keep back a tail that may be the start of `</think>`.
    let keep = 0;
    for (let k = Math.min(CLOSE.length - 1, this.buffer.length); k > 0; k--) {
      if (this.buffer.endsWith(CLOSE.slice(0, k))) {
        keep = k;
        break;
      }
    }
    const reasoning = this.buffer.slice(0, this.buffer.length - keep);
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return { reasoning, text: '' };
  }

  /** What is left when the stream ends: an unclosed think block is reasoning. */
  end(): { reasoning: string; text: string } {
    const rest = this.buffer;
    this.buffer = '';
    if (this.state === 'in') return { reasoning: rest, text: '' };
    return { reasoning: '', text: rest };
  }
}

/** Whole-string form: `{ reasoning, text }`. */
export function splitThink(content: string): { reasoning: string; text: string } {
  const s = new ThinkSplitter();
  const a = s.push(content);
  const b = s.end();
  return { reasoning: a.reasoning + b.reasoning, text: a.text + b.text };
}
