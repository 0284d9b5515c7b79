import { createInterface } from 'node:readline';
import { answerTo, APPROVAL_ARM_DELAY_MS, type ApprovalBroker, type ApprovalDecision, type ApprovalRequest } from '../../common/approval';
import { escapeForDisplay } from '../../common/display-text';
import { pick } from '../../common/i18n';
import { osUser } from '../runtime/os-user';

/**
 * `--approve ask`: the approval dialog in the terminal, with the same content as the desktop dialog
 * (summary, risk, exact arguments, every target, preview, rule). Written to stderr so stdout stays
 * one JSON object. Input typed before the arm delay is ignored, so a stray Enter cannot approve.
 */
export function terminalBroker(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): ApprovalBroker {
  return {
    request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      output.write(renderApproval(request));
      if (input === process.stdin) process.stdin.ref();
      return new Promise<ApprovalDecision>((resolve) => {
        const rl = createInterface({ input, terminal: false });
        const armedAt = Date.now() + APPROVAL_ARM_DELAY_MS;
        let waitingForReason = false;
        // resolve() before close(): closing emits 'close' synchronously, whose handler would
        // otherwise settle the promise first, as "no approver".
        const finish = (decision: ApprovalDecision) => {
          resolve(decision);
          rl.close();
          // Let the process end once answered even while the terminal's input stays open: a
          // paused stdin still holds the event loop (issue 14 class 13).
          if (input === process.stdin) process.stdin.unref();
        };
        signal.addEventListener('abort', () => finish(answerTo(request, 'deny', 'timeout')), { once: true });
        const prompt = () => output.write(request.lang === 'en' ? '[y] allow once  [s] allow for this session  [n] deny > ' : '[y] 한 번 허용  [s] 이번 세션 동안 허용  [n] 거부 > ');
        setTimeout(prompt, APPROVAL_ARM_DELAY_MS);
        rl.on('line', (line) => {
          if (Date.now() < armedAt) return;
          const answer = line.trim();
          if (waitingForReason) return finish(answerTo(request, 'deny', `os:${osUser()}`, answer));
          switch (answer.toLowerCase()) {
            case 'y':
              return finish(answerTo(request, 'allow-once', `os:${osUser()}`));
            case 's':
              return finish(answerTo(request, 'allow-session', `os:${osUser()}`));
            case 'n':
              waitingForReason = true;
              output.write(request.lang === 'en' ? 'Reason (optional, Enter to skip) > ' : '거부 사유 (선택, Enter로 건너뜀) > ');
              return undefined;
            default:
              prompt();
              return undefined;
          }
        });
        // Input closed: after 'n' the person denied (the reason was left out); before any answer
        // nobody approved, which is a deny by the person at this terminal, not "no approver".
        rl.on('close', () =>
          resolve(answerTo(request, 'deny', `os:${osUser()}`, waitingForReason ? undefined : request.lang === 'en' ? 'no answer: the terminal input was closed' : '답이 없음: 터미널 입력이 닫혔습니다')),
        );
      });
    },
  };
}

export function renderApproval(r: ApprovalRequest): string {
  const en = r.lang === 'en';
  // Every value that came from the model or the disk is escaped (issue 14 class 7).
  const show = (value: string) => escapeForDisplay(value);
  const lines = [
    '',
    en ? '── Approval needed ──' : '── 승인이 필요합니다 ──',
    show(pick(r.summary, r.lang)),
    `${en ? 'Tool' : '도구'}: ${show(r.tool)}   ${en ? 'Risk' : '위험도'}: ${r.risk}   ${en ? 'Rule' : '규칙'}: ${show(r.rule)} (${r.ruleSource})`,
    `${en ? 'Arguments' : '인자'}: ${show(JSON.stringify(r.args))}`,
  ];
  if (r.destination) lines.push(`${en ? 'Destination' : '대상'}: ${show(r.destination)}`);
  if (r.targets.length > 0) {
    lines.push(`${en ? 'Affected items' : '대상 항목'} (${r.targets.length}):`);
    for (const t of r.targets) lines.push(`  ${show(t.path)}${t.to ? ` → ${show(t.to)}` : ''}${t.exists ? '' : en ? ' (new)' : ' (새로 만듦)'}`);
  }
  if (r.preview) lines.push(en ? 'Preview:' : '미리보기:', escapeForDisplay(r.preview, { keepNewlines: true }));
  lines.push(`${en ? 'Approval digest' : '승인 다이제스트'}: ${r.digest.slice(0, 16)}…`, '');
  return `${lines.join('\n')}\n`;
}
