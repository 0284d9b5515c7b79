import { useRef, useState, type KeyboardEvent } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import { t } from '../../i18n';
import { isSendKey } from '../../lib/ime';

export interface ComposerProps {
  readonly lang: Lang;
  readonly disabled: boolean;
  readonly onSend: (text: string) => void;
}

/** The request box: Enter sends, Shift+Enter breaks the line, and Enter that ends a Hangul composition only ends it. */
export function Composer({ lang, disabled, onSend }: ComposerProps) {
  const [value, setValue] = useState('');
  // compositionstart/end as well as the key event's own flags: engines disagree about which they set.
  const composing = useRef(false);

  const submit = () => {
    const text = value.trim();
    if (!text || disabled) return;
    onSend(text);
    setValue('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter') return;
    if (isSendKey(e, composing.current)) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="composer-input" className="visually-hidden">
        {t('composerLabel', lang)}
      </label>
      <textarea
        id="composer-input"
        value={value}
        rows={2}
        placeholder={t('composerHint', lang)}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
        onCompositionStart={() => (composing.current = true)}
        onCompositionEnd={() => (composing.current = false)}
      />
      <button type="submit" disabled={disabled || value.trim() === ''}>
        {t('send', lang)}
      </button>
    </form>
  );
}
