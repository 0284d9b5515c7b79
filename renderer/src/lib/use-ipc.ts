import { useCallback, useEffect, useRef, useState } from 'react';
import type { IpcErrorCode, IpcResult } from '../../../electron/common/ipc-contract';

/**
 * Loads one value over the bridge and reloads it on demand: the value, or the error code the
 * page turns into ko/en words. A load that comes back after the screen went away is dropped.
 */
export function useIpcValue<T>(load: () => Promise<IpcResult<T>>, deps: readonly unknown[]): { value: T | null; error: IpcErrorCode | null; reload: () => void } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<IpcErrorCode | null>(null);
  const [round, setRound] = useState(0);
  const stableLoad = useCallback(load, deps);
  useEffect(() => {
    let current = true;
    stableLoad().then(
      (r) => {
        if (!current) return;
        if (r.ok) {
          setValue(r.value);
          setError(null);
        } else setError(r.error.code);
      },
      () => current && setError('INTERNAL'),
    );
    return () => {
      current = false;
    };
  }, [stableLoad, round]);
  return { value, error, reload: () => setRound((n) => n + 1) };
}

/**
 * One request a button sends (verify, export, take a checkpoint): busy while it runs, then its
 * value or the error code. A new run clears the last error and keeps the last value on screen
 * until the new one replaces it, unless `clearOnRun` (an export's old "saved to" line would
 * mislead while the next one is in the save dialog). An answer that comes back after the screen
 * went away is dropped.
 */
export function useIpcAction<A, T>(
  call: (args: A) => Promise<IpcResult<T>>,
  options: { readonly clearOnRun?: boolean } = {},
): { busy: boolean; value: T | null; error: IpcErrorCode | null; run: (args: A) => void } {
  const [busy, setBusy] = useState(false);
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<IpcErrorCode | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = (args: A) => {
    setBusy(true);
    setError(null);
    if (options.clearOnRun) setValue(null);
    call(args).then(
      (r) => {
        if (!mounted.current) return;
        setBusy(false);
        if (r.ok) setValue(r.value);
        else setError(r.error.code);
      },
      () => {
        if (!mounted.current) return;
        setBusy(false);
        setError('INTERNAL');
      },
    );
  };
  return { busy, value, error, run };
}
