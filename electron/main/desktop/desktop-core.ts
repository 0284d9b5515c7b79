import { ipcFail, ipcOk } from '../../common/ipc-contract';
import type { Lang } from '../../common/i18n';
import { announcingBroker, type AgentEvent } from '../agent/agent';
import { ConversationStore, conversationsFile } from '../agent/conversations';
import { toolCatalog } from '../gate';
import { osUser } from '../runtime/os-user';
import { auditDir, openSession, type SessionOptions, type Session } from '../runtime/session';
import type { IpcHandlers } from '../app/ipc';
import { createAppHandlers } from '../app/handlers';
import { ChatService } from './chat-service';
import type { EmitEvent } from './emit';
import { conversationSummary, conversationView } from './conversation-view';
import { WindowBroker } from './window-broker';
import { DesktopSettingsStore, desktopSettingsFile } from './desktop-settings';
import { ModelSlot, type DesktopModel } from './model-slot';
import { savedModel, SettingsService } from './settings-service';
import { AuditService } from './audit-service';
import { SessionNotices } from './notices';
import type { SaveDialog } from './save-dialog';

/**
 * Everything behind the window, without Electron: the session (gate and ledger), the window's
 * approval broker, the conversation store and the agent runs, with the contract's handlers on
 * top. Electron's main.ts and the browser preview (electron/main/preview) open it the same way, so
 * what a reviewer clicks in the preview is the app's core. One disposable object: close() stops a
 * running request, then closes the store and the session (which records the stop).
 */
export interface DesktopCoreOptions {
  readonly session: Omit<SessionOptions, 'broker' | 'lang'>;
  readonly lang: Lang;
  readonly version: string;
  /**
   * The model, chosen once the session's policy is known (the admin lists the allowed ones);
   * null or absent → `chat:send` answers UNAVAILABLE.
   */
  readonly model?: (session: Session) => DesktopModel | null;
  readonly emit: EmitEvent;
  /** Where audit exports are saved: main's own dialog (Electron) or the preview's; absent → export says so. */
  readonly saveDialog?: SaveDialog;
}

export type { DesktopModel };

export interface DesktopCore {
  readonly handlers: IpcHandlers;
  readonly session: Session;
  close(): Promise<void>;
}

export async function openDesktopCore(o: DesktopCoreOptions): Promise<DesktopCore> {
  const broker = new WindowBroker(o.emit, `os:${osUser()}`);
  let chat: ChatService | null = null;
  const relay = (e: AgentEvent) => chat?.relay(e);
  const notices = new SessionNotices(o.emit);
  const session = await openSession({ ...o.session, lang: o.lang, broker: announcingBroker(broker, relay), onNotice: (text) => notices.add(text) });
  const log = (message: string) => console.warn(`[baram] ${message}`);
  const prefs = DesktopSettingsStore.open(desktopSettingsFile(session.dataDir), log);
  // The model chosen in settings wins over the one given at start (BARAM_MODEL), while the policy allows it.
  const models = new ModelSlot(savedModel(prefs, session, log) ?? o.model?.(session) ?? null);
  const store = ConversationStore.open(conversationsFile(session.dataDir));
  const chatService = new ChatService({
    gate: session.gate,
    model: () => models.current,
    store,
    lang: o.lang,
    workspace: session.roots[0] ?? '',
    emit: o.emit,
  });
  chat = chatService;
  const settings = new SettingsService({
    session,
    store: prefs,
    models,
    startLang: o.lang,
    ...(o.session.policyFile ? { policyFile: o.session.policyFile } : {}),
    user: `os:${osUser()}`,
    busy: () => chatService.busy,
  });
  const audit = new AuditService({ dir: auditDir(session.dataDir), version: o.version, ...(o.saveDialog ? { saveDialog: o.saveDialog } : {}) });
  const noModel = () => ipcFail<never>('UNAVAILABLE', 'no model is configured for the desktop app');
  const handlers = createAppHandlers({
    version: o.version,
    lang: () => settings.lang,
    settings: settings.handlers(),
    listTools: () => toolCatalog().map(({ name, family, risk, description }) => ({ name, family, risk, description })),
    session: {
      'chat:send': (r) => (chat ? chat.send(r.text, r.conversationId) : noModel()),
      'chat:stop': (r) => (chat ? chat.stop(r.runId) : noModel()),
      'conversations:list': () => ipcOk(store ? store.list().map(conversationSummary) : []),
      'conversations:load': (r) => {
        const found = store?.load(r.id);
        return found ? ipcOk(conversationView(found)) : ipcFail('NOT_FOUND', 'no saved conversation has that id');
      },
      'approval:pending': () => ipcOk(broker.open()),
      'notices:list': () => ipcOk(notices.list()),
      'approval:answer': (r) =>
        broker.answer(r) ? ipcOk({ accepted: true }) : ipcFail('NOT_FOUND', 'that approval is no longer open (answered, timed out or stopped)'),
      'audit:page': (r) => audit.page(r),
      'audit:verify': () => audit.verify(),
      'audit:export': (r) => audit.export(r),
      'audit:checkpoint': (r) => audit.checkpoint(r),
    },
  });
  let closed = false;
  return {
    handlers,
    session,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await chat?.close();
        await models.close();
        store?.close();
        audit.close();
      } finally {
        await session.close();
      }
    },
  };
}
