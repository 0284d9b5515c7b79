import { createInterface } from 'node:readline';
import { answerTo, APPROVAL_ARM_DELAY_MS, type ApprovalBroker, type ApprovalChoice, type ApprovalDecision, type ApprovalRequest } from '../../common/approval';
import { escapeForDisplay } from '../../common/display-text';
import type { Risk, RuleSource } from '../../common/domain';
import { pick, text, type Lang, type Text } from '../../common/i18n';
import { osUser } from '../runtime/os-user';

/**
 * `--approve ask`: the approval dialog in the terminal, with the same content as the desktop dialog
 * (summary, kind of action, exact arguments, every target with its absolute path, preview, rule).
 * Written to stderr so stdout stays one JSON object. Input typed before the arm delay is ignored,
 * so a stray Enter cannot approve — and the person is told so. Plain words for an office worker
 * (issue 15 item 7): no risk codes, rule sources or digests in English.
 */
export function terminalBroker(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): ApprovalBroker {
  return {
    request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      const lang = request.lang;
      const say = (t: Text) => output.write(`${pick(t, lang)}\n`);
      output.write(renderApproval(request));
      if (input === process.stdin) process.stdin.ref();
      return new Promise<ApprovalDecision>((resolve) => {
        const rl = createInterface({ input, terminal: false });
        const startedAt = Date.now();
        const armedAt = startedAt + APPROVAL_ARM_DELAY_MS;
        let waitingForReason = false;
        let settled = false;
        // resolve() before close(): closing emits 'close' synchronously, whose handler would
        // otherwise settle the promise first.
        const finish = (decision: ApprovalDecision) => {
          settled = true;
          resolve(decision);
          rl.close();
          // Let the process end once answered even while the terminal's input stays open: a
          // paused stdin still holds the event loop (issue 14 class 13).
          if (input === process.stdin) process.stdin.unref();
        };
        signal.addEventListener(
          'abort',
          () => {
            // A line of its own: the person must see that the wait ended and how.
            if (signal.reason === 'cancelled') say(text('중지되어 이 요청은 거부되었습니다.', 'Stopped: this request was denied.'));
            else say(approvalMessages.timedOut(Math.round(request.timeoutMs / 1000)));
            finish(answerTo(request, 'deny', 'timeout'));
          },
          { once: true },
        );
        const prompt = () => {
          const left = Math.max(0, Math.round((request.timeoutMs - (Date.now() - startedAt)) / 1000));
          // The summary again just above the prompt: a long target list has scrolled it away.
          output.write(`${pick(approvalMessages.promptLine(escapeForDisplay(pick(request.summary, lang)), left), lang)} `);
        };
        setTimeout(prompt, APPROVAL_ARM_DELAY_MS);
        let ignoredEarly = false;
        rl.on('line', (line) => {
          if (settled) return;
          if (Date.now() < armedAt) {
            if (!ignoredEarly) say(approvalMessages.typedTooEarly);
            ignoredEarly = true;
            return;
          }
          const answer = line.trim();
          if (waitingForReason) return finish(answerTo(request, 'deny', `os:${osUser()}`, answer));
          const choice = choiceOf(answer);
          if (choice === 'allow-once' || choice === 'allow-session') return finish(answerTo(request, choice, `os:${osUser()}`));
          if (choice === 'deny') {
            waitingForReason = true;
            output.write(`${pick(text('거부 사유 (선택, Enter로 건너뜀) >', 'Reason (optional, Enter to skip) >'), lang)} `);
            return undefined;
          }
          say(approvalMessages.unknownKey(answer));
          prompt();
          return undefined;
        });
        // Input closed: after 'n' the person denied (the reason was left out); before any answer
        // nobody approved, which is a deny by the person at this terminal, not "no approver".
        rl.on('close', () => {
          if (settled) return;
          resolve(answerTo(request, 'deny', `os:${osUser()}`, waitingForReason ? undefined : pick(text('답이 없음: 터미널 입력이 닫혔습니다', 'no answer: the terminal input was closed'), lang)));
        });
      });
    },
  };
}

/**
 * The keys on a Korean 2-set keyboard with Hangul on: y → ㅛ, s → ㄴ, n → ㅜ. Words too, since a
 * person may simply type 예 or 아니요.
 */
const ANSWERS: Readonly<Record<string, ApprovalChoice>> = {
  y: 'allow-once',
  yes: 'allow-once',
  ㅛ: 'allow-once',
  예: 'allow-once',
  네: 'allow-once',
  s: 'allow-session',
  ㄴ: 'allow-session',
  n: 'deny',
  no: 'deny',
  ㅜ: 'deny',
  아니요: 'deny',
  아니오: 'deny',
};

function choiceOf(answer: string): ApprovalChoice | undefined {
  return ANSWERS[answer.normalize('NFC').toLowerCase()];
}

const RISK_WORDS: Readonly<Record<Risk, Text>> = {
  read: text('읽기만 함', 'reads only'),
  write: text('파일을 만들거나 바꿈', 'creates or changes files'),
  destructive: text('지움 (휴지통에서 되돌릴 수 있음)', 'deletes (restorable from the trash)'),
  execute: text('프로그램을 실행함', 'runs a program'),
  network: text('다른 컴퓨터와 통신함', 'talks to another computer'),
};

const SOURCE_WORDS: Readonly<Record<RuleSource, Text>> = {
  admin: text('관리자 정책', "administrator's policy"),
  user: text('사용자 설정', 'your settings'),
  session: text('이번 세션에서 허용한 것', 'allowed earlier in this session'),
  builtin: text('기본 설정', 'built-in default'),
};

export const approvalMessages = {
  promptLine: (summary: string, secondsLeft: number): Text =>
    text(
      `${summary}\n[y] 한 번 허용  [s] 이번 세션 동안 허용  [n] 거부 — ${waitWords(secondsLeft, 'ko')} 안에 답하지 않으면 거부됩니다 >`,
      `${summary}\n[y] allow once  [s] allow for this session  [n] deny — denied unless answered within ${waitWords(secondsLeft, 'en')} >`,
    ),
  timedOut: (seconds: number): Text =>
    text(`\n${waitWords(seconds, 'ko')} 동안 답이 없어 이 요청은 거부되었습니다.`, `\nNo answer within ${waitWords(seconds, 'en')}: this request was denied.`),
  typedTooEarly: text(
    '(승인 창이 준비되기 전에 입력한 내용은 무시했습니다. 내용을 읽고 다시 입력하세요.)',
    '(What you typed before the request was ready was ignored. Read it, then type your answer again.)',
  ),
  unknownKey: (typed: string): Text =>
    text(
      `'${escapeForDisplay(typed)}'은(는) 알 수 없는 답입니다. y(허용), s(이번 세션 동안 허용), n(거부) 중 하나를 입력하세요. 한글이 입력되면 한/영 키를 눌러 영문으로 바꾸세요.`,
      `'${escapeForDisplay(typed)}' is not an answer. Type y (allow), s (allow for this session) or n (deny).`,
    ),
};

function waitWords(seconds: number, lang: Lang): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (lang === 'ko') return m > 0 ? `${m}분${s > 0 ? ` ${s}초` : ''}` : `${s}초`;
  return m > 0 ? `${m} min${s > 0 ? ` ${s} s` : ''}` : `${s} s`;
}

function ruleWords(rule: string, source: RuleSource, lang: Lang): string {
  const from = pick(SOURCE_WORDS[source], lang);
  if (rule.startsWith('defaults.')) return lang === 'ko' ? `${from}: 이런 작업은 승인을 받습니다` : `${from}: this kind of action needs approval`;
  if (rule === 'session-grant') return from;
  return `${from} '${escapeForDisplay(rule)}'`;
}

export function renderApproval(r: ApprovalRequest): string {
  const lang = r.lang;
  const t = (ko: string, en: string) => (lang === 'en' ? en : ko);
  // Every value that came from the model or the disk is escaped (issue 14 class 7).
  const show = (value: string) => escapeForDisplay(value);
  const lines = [
    '',
    t('── 승인이 필요합니다 ──', '── Approval needed ──'),
    show(pick(r.summary, lang)),
    `${t('하는 일', 'What it does')}: ${pick(RISK_WORDS[r.risk], lang)}   ${t('도구', 'Tool')}: ${show(r.tool)}`,
    `${t('승인을 묻는 이유', 'Why you are asked')}: ${ruleWords(r.rule, r.ruleSource, lang)}`,
    `${t('정확한 인자', 'Exact arguments')}: ${show(JSON.stringify(r.args))}`,
  ];
  if (r.destination) lines.push(`${t('접속할 곳', 'Destination')}: ${show(r.destination)}`);
  if (r.targets.length > 0) {
    lines.push(`${t('다룰 항목', 'Affected items')} (${r.targets.length}${t('개', '')}):`);
    for (const target of r.targets) {
      const to = target.absoluteTo ? ` → ${show(target.absoluteTo)}` : '';
      lines.push(`  ${show(target.absolutePath)}${to}${target.exists ? '' : t(' (새로 만듦)', ' (new)')}`);
    }
  }
  if (r.preview) lines.push(t('미리보기:', 'Preview:'), escapeForDisplay(r.preview, { keepNewlines: true }));
  lines.push(`${t('확인 코드', 'Check code')}: ${r.digest.slice(0, 12)}`, '');
  return `${lines.join('\n')}\n`;
}
