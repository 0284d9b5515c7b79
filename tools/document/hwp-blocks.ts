/** Moved to tools/kit/hwp-blocks.ts (shared with search.text's document search). */
export * from '../kit/hwp-blocks';
