import { answerTo, type ApprovalBroker } from '../../common/approval';
import { isLang, text, type Lang } from '../../common/i18n';
import { osUser } from '../runtime/os-user';
import { UsageError } from './args';

/** The flags every command that opens a session shares (call, run): who approves, which language. */
export async function brokerFor(mode: string): Promise<ApprovalBroker | null> {
  switch (mode) {
    case 'all':
      return { request: async (request) => answerTo(request, 'allow-once', `cli:--approve all (${osUser()})`) };
    case 'none':
      return null;
    case 'ask':
      return (await import('./terminal-approval')).terminalBroker();
    default:
      throw new UsageError(text(`--approve는 all, none, ask 중 하나여야 합니다(지금은 '${mode}').`, `--approve must be one of all, none, ask (was '${mode}').`));
  }
}

export function langFlag(value: string | undefined): Lang {
  if (value === undefined) return 'ko';
  if (!isLang(value)) throw new UsageError(text(`--lang은 ko 또는 en이어야 합니다(지금은 '${value}').`, `--lang must be ko or en (was '${value}').`));
  return value;
}

