/** Moved to tools/kit/word-blocks.ts (shared with search.text's document search). */
export * from '../kit/word-blocks';
