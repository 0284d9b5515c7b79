import { useCallback, useEffect, useState } from 'react';
import type { IpcErrorCode, IpcResult } from '../../../../electron/common/ipc-contract';

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
