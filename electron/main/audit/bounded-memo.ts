/**
 * `compute` for short strings, remembered: names and keys repeat (every row of a CSV, every flag of
 * a script, the same few keys in every audit event), so a remembered answer costs one lookup.
 * Bounded, so hostile input cannot grow it: cleared when full, and a key longer than
 * `maxKeyChars` is computed every time and never kept.
 */
export function boundedMemo<T>(compute: (key: string) => T, maxEntries: number, maxKeyChars: number): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    if (key.length > maxKeyChars) return compute(key);
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    if (known.size >= maxEntries) known.clear();
    known.set(key, value);
    return value;
  };
}
