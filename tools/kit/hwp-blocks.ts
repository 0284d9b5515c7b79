import type { DocumentKind } from '../../electron/common/document-capability';

/**
 * Which HWP container a file is. The parse itself (kordoc, and its blocks as ours) runs in the
 * host's parse thread: ctx.documents.parse (electron/main/host/documents).
 */

/** The three containers kordoc reads. */
export type HwpContainer = Exclude<DocumentKind, 'docx'>;

const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/** Which container the bytes are, by their first bytes; undefined: none of them. */
export function hwpContainerOf(bytes: Uint8Array): HwpContainer | undefined {
  if (OLE.every((b, i) => bytes[i] === b)) return 'hwp5';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'hwpx';
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 20)).startsWith('HWP Document File')) return 'hwp3';
  return undefined;
}
