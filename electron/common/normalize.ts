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
      out[key] = normalizeNulls(v);
    }
    return out;
  }
  return value;
}
