import { describe, expect, it } from 'vitest';
import { RISKS } from '../../../electron/common/domain';
import { decisionLabels, ipcErrorMessages, messages, outcomeLabels, riskLabels, ruleSourceLabels } from '../../../renderer/src/i18n/messages';
import { ipcErrorMessage, riskLabel, t } from '../../../renderer/src/i18n';
import type { Text } from '../../../electron/common/i18n';

const HANGUL = /[\uac00-\ud7a3]/;

function everyText(): [string, Text][] {
  return [
    ...Object.entries(messages),
    ...Object.entries(riskLabels).map(([k, v]): [string, Text] => [`risk.${k}`, v]),
    ...Object.entries(ipcErrorMessages).map(([k, v]): [string, Text] => [`ipc.${k}`, v]),
    ...Object.entries(outcomeLabels).map(([k, v]): [string, Text] => [`outcome.${k}`, v]),
    ...Object.entries(ruleSourceLabels).map(([k, v]): [string, Text] => [`ruleSource.${k}`, v]),
    ...Object.entries(decisionLabels).map(([k, v]): [string, Text] => [`decision.${k}`, v]),
  ];
}

describe('renderer message catalog', () => {
  it('has Korean (with Hangul) and English for every string shown', () => {
    for (const [key, text] of everyText()) {
      expect(text.ko, key).toMatch(HANGUL);
      expect(text.en.trim(), key).not.toBe('');
      expect(text.en, key).not.toMatch(HANGUL);
    }
  });

  it('picks the language asked for, Korean being the app default', () => {
    expect(t('title', 'ko')).toBe('바람');
    expect(t('title', 'en')).toBe('Baram');
    expect(RISKS.map((r) => riskLabel(r, 'ko')).every((label) => HANGUL.test(label))).toBe(true);
    expect(ipcErrorMessage('UNAVAILABLE', 'en')).toMatch(/not connected/);
  });
});
