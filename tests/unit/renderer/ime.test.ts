import { describe, expect, it } from 'vitest';
import { isSendKey, type KeyLike } from '../../../renderer/src/lib/ime';

const key = (over: Partial<KeyLike> & { isComposing?: boolean; keyCode?: number } = {}): KeyLike => ({
  key: over.key ?? 'Enter',
  shiftKey: over.shiftKey ?? false,
  nativeEvent: { isComposing: over.isComposing ?? false, keyCode: over.keyCode ?? 13 },
});

describe('Korean IME and the send key', () => {
  it('Enter sends; Shift+Enter and other keys do not', () => {
    expect(isSendKey(key(), false)).toBe(true);
    expect(isSendKey(key({ shiftKey: true }), false)).toBe(false);
    expect(isSendKey(key({ key: 'a' }), false)).toBe(false);
  });

  it('never sends while a syllable is composing, whichever signal the engine gives', () => {
    expect(isSendKey(key({ isComposing: true }), false)).toBe(false); // Chromium, Firefox
    expect(isSendKey(key({ keyCode: 229 }), false)).toBe(false); // engines that only say "IME busy"
    expect(isSendKey(key(), true)).toBe(false); // between compositionstart and compositionend
  });
});
