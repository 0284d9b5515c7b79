/** Moved to tools/kit/exceljs.ts (shared with search.text's document search). */
export * from '../../kit/exceljs';
