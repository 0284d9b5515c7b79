import { answerTo, type ApprovalBroker } from '../../common/approval';
import { isLang, type Lang } from '../../common/i18n';
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
      throw new UsageError(`--approve must be one of all, none, ask (was '${mode}').`);
  }
}

export function langFlag(value: string | undefined): Lang {
  if (value === undefined) return 'ko';
  if (!isLang(value)) throw new UsageError(`--lang must be ko or en (was '${value}').`);
  return value;
}

