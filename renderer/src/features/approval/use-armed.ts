import { useEffect, useState } from 'react';
import { APPROVAL_ARM_DELAY_MS } from '../../../../electron/common/approval';

/** False for the first ~600 ms after `key` changes (a new request): a stray Enter cannot approve. */
export function useArmed(key: string): boolean {
  const [armedFor, setArmedFor] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setArmedFor(key), APPROVAL_ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return armedFor === key;
}

/** Whole seconds left until `deadline` (ms since epoch), ticking once a second. */
export function useSecondsLeft(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
