export { createFileAccess, DEFAULT_MAX_READ_BYTES, type FileAccessOptions } from './file-access';
export { createPathRules, type PathRules } from './path-rules';
