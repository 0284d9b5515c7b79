/**
 * Time slicing of the ledger. Both slices are UTC so that every machine and every verifier cuts at
 * the same instant regardless of the office's time zone (local time stays readable: each row keeps
 * its offset).
 * - Sealing epoch: one UTC day. The sealing key evolves once a day (SPEC §3 "daily").
 * - Segment: one UTC month, one SQLite file (SPEC §3 "monthly segments").
 */
export const EPOCH_MS = 24 * 60 * 60 * 1000;

export function epochOf(time: Date): number {
  return Math.floor(time.getTime() / EPOCH_MS);
}

export function epochStartIso(epoch: number): string {
  return new Date(epoch * EPOCH_MS).toISOString();
}

/** `2026-12` for any instant in December 2026 UTC. */
export function monthOf(time: Date): string {
  return time.toISOString().slice(0, 7);
}

/** The first instant of the month `YYYY-MM` (UTC), in ms. */
export function monthStartMs(month: string): number {
  const [year, mon] = month.split('-').map(Number);
  return Date.UTC(year ?? 0, (mon ?? 1) - 1, 1);
}

/** The first instant after the month `YYYY-MM` (UTC), in ms. */
export function monthEndMs(month: string): number {
  const [year, mon] = month.split('-').map(Number);
  return Date.UTC(year ?? 0, mon ?? 0, 1);
}
