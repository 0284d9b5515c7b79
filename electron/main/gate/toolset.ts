import { canonicalJson } from '../../common/canonical-json';
import type { AnyTool } from '../../../tools/kit/define-tool';
import { sha256Hex } from './plan-binding';
import frozen from '../../../tools/FROZEN.json';

/**
 * Digest of the toolset in force (SPEC F-FROZEN): names, schemas and risks of the registered tools
 * plus the recorded SHA-256 of every source file under tools/. Written to the audit log at every
 * start so auditors know exactly which tools ran. tests/architecture/frozen-tools.test.ts proves the
 * recorded file digests match the code.
 */
export function toolsetDigest(tools: readonly AnyTool[], sourceOf: (name: string) => string = () => 'builtin'): string {
  const declared = tools
    .map((t) => ({ name: t.name, source: sourceOf(t.name), risk: t.risk, concurrency: t.concurrency, capabilities: t.capabilities, schema: t.input }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return sha256Hex(canonicalJson({ tools: declared, files: frozenFiles() }));
}

export function frozenFiles(): Readonly<Record<string, string>> {
  return (frozen as { files: Record<string, string> }).files;
}
