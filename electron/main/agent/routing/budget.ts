/**
 * Characters of tool output the model gets back per call, from the model's context size.
 *
 *   outputBudgetFor(ctx) = clamp(⌊ctx × 0.20 × 1.3⌋, 1,000, 30,000)
 *
 * One call's output may take a fifth of the context: a five-step task (list, search, read, write,
 * answer) keeps three or four outputs in the prompt besides the system prompt and the tool block.
 * 1.3 characters per token is the worst realistic case, measured with the Qwen3 tokenizer on
 * Korean prose (a memo: 1.31; a file listing with Korean names 1.54; grep output 1.72; code 3.55),
 * so the share holds for Korean text and is generous for the rest. 8k context → 2,129 characters
 * (30,000 would be ~23k tokens of Korean: nearly three 8k contexts); 32k → 8,519; from ~115k tokens
 * on, the policy's 30,000 cap. The floor keeps a 2k-context model usable (a page of text).
 */
export const OUTPUT_SHARE_OF_CONTEXT = 0.2;
export const WORST_CHARS_PER_TOKEN = 1.3;
export const MIN_OUTPUT_CHARS = 1_000;
export const MAX_OUTPUT_CHARS = 30_000;

export function outputBudgetFor(contextTokens: number): number {
  if (!Number.isFinite(contextTokens) || contextTokens <= 0) return MIN_OUTPUT_CHARS;
  const chars = Math.floor(contextTokens * OUTPUT_SHARE_OF_CONTEXT * WORST_CHARS_PER_TOKEN);
  return Math.min(MAX_OUTPUT_CHARS, Math.max(MIN_OUTPUT_CHARS, chars));
}
