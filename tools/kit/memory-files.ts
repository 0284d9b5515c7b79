import { FileAccessError } from '../../electron/common/file-access';
import type { ReadOnlyFileAccess } from './define-tool';

/**
 * A document's bytes, already in memory, behind the ranged reads the zip readers make
 * (zip-index.ts, zip-stream.ts, the xlsx book): the host hands search.text a document's whole
 * content read from one proven descriptor, and the readers then never go back to the file
 * (which may have changed since). Only readBytes works; everything else refuses.
 */
export function filesOverBytes(path: string, bytes: Uint8Array): ReadOnlyFileAccess {
  const refuse = (): never => {
    throw new FileAccessError('FORBIDDEN', path, 'only the document in memory can be read');
  };
  return Object.freeze({
    roots: [],
    resolve: (p: string) => p,
    display: (p: string) => p,
    check: refuse,
    stat: refuse,
    fingerprint: refuse,
    list: refuse,
    glob: refuse,
    walk: refuse,
    trashList: refuse,
    async readBytes(p: string, options: { readonly maxBytes?: number; readonly offset?: number } = {}) {
      if (p !== path) refuse();
      const offset = Math.max(0, options.offset ?? 0);
      const end = options.maxBytes === undefined ? bytes.length : Math.min(bytes.length, offset + options.maxBytes);
      return bytes.subarray(Math.min(offset, bytes.length), end);
    },
  });
}
