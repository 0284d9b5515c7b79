import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ApprovalChoice, ApprovalRequest, ApprovalTarget } from '../../../../electron/common/approval';
import { pick, type Lang } from '../../../../electron/common/i18n';
import { riskLabel, ruleSourceLabel, t } from '../../i18n';
import { VirtualList } from '../../lib/virtual-list';
import { DiffPreview } from './DiffPreview';
import { useArmed, useSecondsLeft } from './use-armed';

export interface ApprovalAnswer {
  readonly choice: ApprovalChoice;
  readonly reason?: string;
}

export interface ApprovalDialogProps {
  readonly request: ApprovalRequest;
  /** Requests waiting behind this one (shown, never overlapping). */
  readonly queued: number;
  readonly lang: Lang;
  readonly onAnswer: (answer: ApprovalAnswer) => void;
}

const ROW_HEIGHT = 28;
const LIST_HEIGHT = 224;

/**
 * The approval dialog (SPEC G-APPROVE): what will happen in plain words, the risk, the rule that
 * asked, the exact arguments, every affected file, and three answers. The buttons arm after
 * ~600 ms; focus starts on the dialog itself (not a button) and stays inside it; Escape denies.
 */
export function ApprovalDialog({ request, queued, lang, onAnswer }: ApprovalDialogProps) {
  const armed = useArmed(request.callId);
  const deadline = useMemo(() => Date.now() + request.timeoutMs, [request.callId, request.timeoutMs]);
  const secondsLeft = useSecondsLeft(deadline);
  const [reason, setReason] = useState('');
  const dialog = useRef<HTMLDivElement>(null);
  const { listed, created } = useMemo(() => splitTargets(request.targets), [request.targets]);

  useEffect(() => {
    setReason('');
    dialog.current?.focus();
  }, [request.callId]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Escape denies (fail closed: closing the dialog never approves), with the reason typed so far.
    if (e.key === 'Escape') {
      e.preventDefault();
      deny();
      return;
    }
    if (e.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button:not([disabled]), textarea, summary, [tabindex="0"]')];
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === dialog.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const deny = () => {
    const trimmed = reason.trim();
    onAnswer(trimmed ? { choice: 'deny', reason: trimmed } : { choice: 'deny' });
  };
  const answer = (choice: ApprovalChoice) => {
    if (!armed) return;
    if (choice === 'deny') deny();
    else onAnswer({ choice });
  };

  return (
    <div className="dialog-backdrop">
      <div
        ref={dialog}
        className="dialog approval"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="approval-title"
        aria-describedby="approval-summary"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-armed={armed}
      >
        <h2 id="approval-title">{t('approvalTitle', lang)}</h2>
        <div className="dialog-body">
        {queued > 0 && (
          <p className="queued">
            +{queued} {t('approvalQueued', lang)}
          </p>
        )}
        <p id="approval-summary" className="approval-summary">
          {pick(request.summary, lang)}
        </p>
        <dl className="approval-facts">
          <dt>{t('approvalRisk', lang)}</dt>
          <dd>
            <span className={`badge risk-${request.risk}`}>{riskLabel(request.risk, lang)}</span>
          </dd>
          <dt>{t('approvalRule', lang)}</dt>
          <dd>
            <code>{request.rule}</code> ({ruleSourceLabel(request.ruleSource, lang)})
          </dd>
          {request.destination && (
            <>
              <dt>{t('approvalDestination', lang)}</dt>
              <dd>
                <code>{request.destination}</code>
              </dd>
            </>
          )}
        </dl>
        <details>
          <summary>{t('arguments', lang)}</summary>
          <pre>{JSON.stringify(request.args, null, 2)}</pre>
        </details>
        {created.length > 0 && (
          <p className="created">
            {t('approvalNewFolder', lang)}: {created.map((c) => c.path).join(', ')}
          </p>
        )}
        {listed.length > 0 && (
          <section aria-labelledby="approval-files">
            <h3 id="approval-files">
              {t('approvalFiles', lang)} <span className="count">({listed.length})</span>
            </h3>
            <VirtualList
              items={listed}
              rowHeight={ROW_HEIGHT}
              height={LIST_HEIGHT}
              label={t('approvalFiles', lang)}
              keyOf={(target, i) => `${i}:${target.absolutePath}`}
              renderRow={(target) => <TargetRow target={target} lang={lang} />}
            />
          </section>
        )}
        {request.preview && <DiffPreview tool={request.tool} preview={request.preview} lang={lang} />}
        </div>
        <label htmlFor="deny-reason">{t('approvalReason', lang)}</label>
        <textarea id="deny-reason" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        <p className="countdown" aria-live="off">
          {t('autoDenyIn', lang)} {secondsLeft}
          {t('seconds', lang)}
        </p>
        <div className="dialog-buttons">
          <button type="button" disabled={!armed} onClick={() => answer('allow-once')}>
            {t('allowOnce', lang)}
          </button>
          <button type="button" disabled={!armed} onClick={() => answer('allow-session')}>
            {t('allowSession', lang)}
          </button>
          <button type="button" className="danger" disabled={!armed} onClick={() => answer('deny')}>
            {t('deny', lang)}
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * In a move or copy plan, a target without a destination is the folder the tool creates to
 * receive the files: shown on its own line, so the list (and its count) is the files themselves.
 */
function splitTargets(targets: readonly ApprovalTarget[]): { listed: readonly ApprovalTarget[]; created: readonly ApprovalTarget[] } {
  if (!targets.some((t) => t.to !== undefined)) return { listed: targets, created: [] };
  return { listed: targets.filter((t) => t.to !== undefined), created: targets.filter((t) => t.to === undefined) };
}

function TargetRow({ target, lang }: { readonly target: ApprovalTarget; readonly lang: Lang }) {
  return (
    <span className="target" title={target.absoluteTo ? `${target.absolutePath} → ${target.absoluteTo}` : target.absolutePath}>
      <code>{target.path}</code>
      {target.to !== undefined && (
        <>
          {' → '}
          <code>{target.to}</code>
        </>
      )}
      {/* `exists` is whether the named path exists now (the gate's fingerprint), as the terminal shows it. */}
      {!target.exists && <span className="badge running">{t('approvalNew', lang)}</span>}
    </span>
  );
}
