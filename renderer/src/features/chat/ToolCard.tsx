import { pick, type Lang } from '../../../../electron/common/i18n';
import { outcomeLabel, t } from '../../i18n';
import type { ToolCardState } from './chat-state';

/** One tool call: which tool, its state or outcome, and (folded) the arguments and the result. */
export function ToolCard({ card, lang }: { readonly card: ToolCardState; readonly lang: Lang }) {
  const badge =
    card.phase === 'done' && card.outcome ? (
      <span className={`badge outcome-${card.outcome}`} data-outcome={card.outcome}>
        {outcomeLabel(card.outcome, lang)}
      </span>
    ) : (
      <span className="badge running" data-outcome={card.phase}>
        {t(card.phase === 'waiting' ? 'waitingApproval' : 'running', lang)}
      </span>
    );
  return (
    <article className="tool-card" data-tool={card.tool} aria-label={card.tool}>
      <header>
        <code>{card.tool}</code> {badge}
      </header>
      {card.summary && <p className="tool-summary">{pick(card.summary, lang)}</p>}
      <details>
        <summary>{t('arguments', lang)}</summary>
        <pre>{JSON.stringify(card.args, null, 2)}</pre>
      </details>
      {card.result !== undefined && (
        <details>
          <summary>{t('result', lang)}</summary>
          <pre className="tool-result">{card.result}</pre>
        </details>
      )}
    </article>
  );
}
