/** Exhaustive-switch guard: a new union member does not compile until every switch handles it. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
