import { Value } from '@sinclair/typebox/value';
import type { IpcChannel, IpcRequest } from './ipc-contract';
import { requestSchemas } from './ipc-schemas';

/**
 * Runtime check of a request against its contract schema: the page is untrusted, so main checks
 * every request before a handler sees it. A separate module so the page and the preload bundles
 * do not carry the validator. Only plain objects pass: a request arrives by structured clone (IPC)
 * or JSON (preview), so anything else (a class instance, a symbol key) is not from our bridge.
 */
export function isValidRequest<C extends IpcChannel>(channel: C, value: unknown): value is IpcRequest<C> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  return Value.Check(requestSchemas[channel], value);
}
