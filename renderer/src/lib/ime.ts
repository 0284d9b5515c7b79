/**
 * Korean IME (SPEC §6): while a Hangul syllable is still composing, Enter confirms the syllable;
 * it must not also send the message. Chromium marks such key events with `isComposing`, and older
 * engines report keyCode 229 ("IME is processing") instead, so either one means "not ours".
 */
export interface KeyLike {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly nativeEvent: { readonly isComposing?: boolean; readonly keyCode?: number };
}

export function isComposing(e: KeyLike): boolean {
  return e.nativeEvent.isComposing === true || e.nativeEvent.keyCode === 229;
}

/** Enter without Shift, outside composition: the send gesture. */
export function isSendKey(e: KeyLike, composingNow: boolean): boolean {
  return e.key === 'Enter' && !e.shiftKey && !composingNow && !isComposing(e);
}
