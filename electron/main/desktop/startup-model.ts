import { resolve } from 'node:path';
import { createBackend } from '../model';
import { modelSourceAllowed } from '../policy';
import type { Session } from '../runtime/session';
import type { DesktopModel } from './desktop-core';

/**
 * The model the window uses, from BARAM_MODEL (a server URL or a GGUF file) until the settings
 * screen stores a choice; only if the admin policy lists it (SPEC §4: a prompt carries the user's
 * documents, so an unlisted server never sees one). Returns null otherwise, with the reason.
 */
export function modelFromEnv(value: string | undefined, session: Session, log: (message: string) => void): DesktopModel | null {
  if (!value) return null;
  const isUrl = /^https?:\/\//i.test(value);
  const target = isUrl ? value : resolve(value);
  const verdict = modelSourceAllowed(session.policy, isUrl ? { kind: 'url', url: target } : { kind: 'file', path: target });
  if (!verdict.ok) {
    log(`BARAM_MODEL ${value} is not allowed by the policy: ${verdict.message.en}`);
    return null;
  }
  return { backend: createBackend(target), label: target };
}
