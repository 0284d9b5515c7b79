/**
 * Tool names on the wire. Baram's names are `family.action` (and `mcp.<server>.<tool>`), but a
 * backend wants `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule; some servers reject dots, SPEC §5), so
 * dots become underscores going out. Coming back, a name is looked up among the tools Baram knows:
 * the wire form and the dotted form are both accepted (a model may echo either), and anything
 * else is null — never guessed (the gate denies an unknown name with the closest real ones).
 */
const WIRE = /^[a-zA-Z0-9_-]{1,64}$/;

export function toWireName(name: string): string {
  const wire = name.replaceAll('.', '_');
  if (!WIRE.test(wire)) throw new Error(`tool name cannot be sent to a model: ${JSON.stringify(name)}`);
  return wire;
}

/**
 * The Baram name for a name the model sent, or null. With two known names that map to the same
 * wire name ("a.b_c" and "a_b.c"), the wire form is ambiguous and gives null; the dotted form
 * still resolves exactly.
 */
export function fromWireName(sent: string, known: readonly string[]): string | null {
  if (known.includes(sent)) return sent;
  let found: string | null = null;
  for (const name of known) {
    if (name.replaceAll('.', '_') !== sent) continue;
    if (found !== null) return null;
    found = name;
  }
  return found;
}
