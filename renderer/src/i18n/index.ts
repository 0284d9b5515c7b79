import { pick, type Lang } from '../../../electron/common/i18n';
import type { Decision, Outcome, Risk, RuleSource } from '../../../electron/common/domain';
import type { IpcErrorCode } from '../../../electron/common/ipc-contract';
import { decisionLabels, ipcErrorMessages, messages, outcomeLabels, riskLabels, ruleSourceLabels, type MessageKey } from './messages';

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

export function outcomeLabel(outcome: Outcome, lang: Lang): string {
  return pick(outcomeLabels[outcome], lang);
}

export function decisionLabel(decision: Decision, lang: Lang): string {
  return pick(decisionLabels[decision], lang);
}

export function ruleSourceLabel(source: RuleSource, lang: Lang): string {
  return pick(ruleSourceLabels[source], lang);
}

/** Each language named in itself, as the language switches show it. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = { ko: '한국어', en: 'English' };
