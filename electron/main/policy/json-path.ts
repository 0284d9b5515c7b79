/**
 * JSON paths as administrators read them: `$.shell.commands.git.denyArgs[0]`, `$.ssh.hosts['build-01']`.
 * Problems name the exact place to edit, so `baram policy check` output can be acted on without a
 * JSON Pointer tutorial.
 */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsonPath(segments: readonly PathSegment[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += `.${s}`;
    else out += `['${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  }
  return out;
}

/**
 * Turns ajv's JSON Pointer (`/ssh/hosts/0/port`) into segments, walking the data so that a map key
 * that merely looks numeric stays a key and only real array positions become indexes.
 */
export function pointerSegments(pointer: string, data: unknown): PathSegment[] {
  if (pointer === '') return [];
  const segments: PathSegment[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}
