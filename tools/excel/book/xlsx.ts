/** Moved to tools/kit/xlsx-book.ts (shared with search.text's document search). */
export * from '../../kit/xlsx-book';
