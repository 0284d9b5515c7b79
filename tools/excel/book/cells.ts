/** Moved to tools/kit/xlsx-cells.ts (shared with search.text's document search). */
export * from '../../kit/xlsx-cells';
