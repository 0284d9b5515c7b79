/**
 * SPEC G-NULL: a JSON null in tool arguments means "absent". Small models send `"limit": null`
 * for parameters they do not want; the seed project crashed whole turns on it (TCH-04). We drop
 * null-valued object keys at every depth so every later layer sees exactly what an omitted key
 * looks like. Array elements are kept: a null inside a list is a real (invalid) value and the
 * schema layer reports it.
 */
export function normalizeNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeNulls);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === null) continue;
      // Defined, never assigned: `out['__proto__'] = v` would set the prototype instead of a key,
      // and a tool would then read the model's values through the prototype chain while the
      // ledger shows `{}` (issue 14 class 8). The gate refuses such keys first (forbiddenKeyIn).
      Object.defineProperty(out, key, { value: normalizeNulls(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/**
 * Keys no tool argument may have: `__proto__` changes an object's prototype wherever code assigns
 * it, so what runs and what is recorded could differ. Returns the first one found (any depth), as
 * a dotted path, or null.
 */
export function forbiddenKeyIn(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = forbiddenKeyIn(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key === '__proto__') return here;
    const found = forbiddenKeyIn((value as Record<string, unknown>)[key], here);
    if (found) return found;
  }
  return null;
}
