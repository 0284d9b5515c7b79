import { useId } from 'react';
import type { Lang } from '../../../../electron/common/i18n';
import { OUTCOMES } from '../../../../electron/common/domain';
import { outcomeLabel, t } from '../../i18n';
import type { AuditFilter } from './audit-pages';
import { decisionWord } from './AuditTable';

/** What the form holds: strings as typed (times as datetime-local values, in this computer's time zone). */
export interface FilterForm {
  readonly from: string;
  readonly to: string;
  readonly user: string;
  readonly tool: string;
  readonly outcome: string;
  readonly decision: string;
  readonly text: string;
}

export const EMPTY_FORM: FilterForm = { from: '', to: '', user: '', tool: '', outcome: '', decision: '', text: '' };

/** `2026-12-03T09:00` typed in this computer's zone → an ISO instant the engine takes (`…Z`). */
function instant(local: string): string | undefined {
  if (local === '') return undefined;
  const ms = new Date(local).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

export function filterOf(form: FilterForm): AuditFilter {
  const from = instant(form.from);
  const to = instant(form.to);
  const word = (s: string) => s.trim().slice(0, 200);
  return {
    ...(from ? { fromTime: from } : {}),
    ...(to ? { toTime: to } : {}),
    ...(word(form.user) ? { user: word(form.user) } : {}),
    ...(word(form.tool) ? { tool: word(form.tool) } : {}),
    ...(form.outcome ? { outcome: form.outcome as NonNullable<AuditFilter['outcome']> } : {}),
    ...(form.decision ? { decision: form.decision as NonNullable<AuditFilter['decision']> } : {}),
    ...(form.text !== '' ? { text: form.text.slice(0, 200) } : {}),
  };
}

export interface AuditFiltersProps {
  readonly form: FilterForm;
  readonly lang: Lang;
  readonly tools: readonly string[];
  readonly onChange: (form: FilterForm) => void;
}

export function AuditFilters({ form, lang, tools, onChange }: AuditFiltersProps) {
  const id = useId();
  const set = (key: keyof FilterForm) => (e: { currentTarget: { value: string } }) => onChange({ ...form, [key]: e.currentTarget.value });
  return (
    <fieldset className="audit-filters">
      <legend>{t('auditFilters', lang)}</legend>
      <div className="field">
        <label htmlFor={`${id}-from`}>{t('auditFrom', lang)}</label>
        <input type="datetime-local" id={`${id}-from`} name="from" value={form.from} onChange={set('from')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>{t('auditTo', lang)}</label>
        <input type="datetime-local" id={`${id}-to`} name="to" value={form.to} onChange={set('to')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-user`}>{t('auditUser', lang)}</label>
        <input type="text" id={`${id}-user`} name="user" value={form.user} onChange={set('user')} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-tool`}>{t('auditTool', lang)}</label>
        <input type="text" id={`${id}-tool`} name="tool" value={form.tool} onChange={set('tool')} list={`${id}-tools`} autoComplete="off" />
        <datalist id={`${id}-tools`}>
          {tools.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <div className="field">
        <label htmlFor={`${id}-outcome`}>{t('auditOutcome', lang)}</label>
        <select id={`${id}-outcome`} name="outcome" value={form.outcome} onChange={set('outcome')}>
          <option value="">{t('auditAny', lang)}</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {outcomeLabel(o, lang)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-decision`}>{t('auditDecision', lang)}</label>
        <select id={`${id}-decision`} name="decision" value={form.decision} onChange={set('decision')}>
          <option value="">{t('auditAny', lang)}</option>
          {(['allow', 'ask', 'deny'] as const).map((d) => (
            <option key={d} value={d}>
              {decisionWord(d, lang)}
            </option>
          ))}
        </select>
      </div>
      <div className="field wide">
        <label htmlFor={`${id}-text`}>{t('auditText', lang)}</label>
        <input type="search" id={`${id}-text`} name="text" value={form.text} onChange={set('text')} autoComplete="off" />
      </div>
      <button type="button" onClick={() => onChange(EMPTY_FORM)}>
        {t('auditClear', lang)}
      </button>
    </fieldset>
  );
}
