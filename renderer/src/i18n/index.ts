import { pick, type Lang } from '../../../electron/common/i18n';
import type { Risk } from '../../../electron/common/domain';
import type { IpcErrorCode } from '../../../electron/common/ipc-contract';
import { ipcErrorMessages, messages, riskLabels, type MessageKey } from './messages';

/** Korean is the default until the desktop app says otherwise (SPEC §6: Korean first). */
export const DEFAULT_LANG: Lang = 'ko';

export function t(key: MessageKey, lang: Lang): string {
  return pick(messages[key], lang);
}

export function riskLabel(risk: Risk, lang: Lang): string {
  return pick(riskLabels[risk], lang);
}

export function ipcErrorMessage(code: IpcErrorCode, lang: Lang): string {
  return pick(ipcErrorMessages[code], lang);
}
