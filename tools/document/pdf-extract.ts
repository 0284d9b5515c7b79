/** Moved to tools/kit/pdf-extract.ts (shared with search.text's document search). */
export * from '../kit/pdf-extract';
