import { ipcFail, ipcOk, type ToolSummary } from '../../common/ipc-contract';
import type { Lang } from '../../common/i18n';
import type { IpcHandlers } from './ipc';

/** The channels a working session answers (electron/main/desktop/desktop-core.ts). */
export type SessionHandlers = Pick<IpcHandlers, 'chat:send' | 'chat:stop' | 'conversations:list' | 'conversations:load' | 'approval:pending' | 'approval:answer' | 'notices:list'
> & Partial<AuditHandlers>;

/** The audit viewer's channels (electron/main/desktop/audit-service.ts); absent → UNAVAILABLE. */
export type AuditHandlers = Pick<IpcHandlers, 'audit:page' | 'audit:verify' | 'audit:export' | 'audit:checkpoint'>;

/** The settings screen's channels (electron/main/desktop/settings-service.ts). */
export type SettingsHandlers = Pick<
  IpcHandlers,
  'settings:get' | 'settings:set-lang' | 'model:status' | 'model:check' | 'model:use' | 'policy:view' | 'grants:list' | 'grants:revoke'
>;

export interface AppHandlerDeps {
  readonly version: string;
  /** The UI language at start; a function when settings can change it (the saved choice). */
  readonly lang: Lang | (() => Lang);
  /** Settings, model status, policy and grants; absent (no session) → UNAVAILABLE. */
  readonly settings?: SettingsHandlers;
  /**
   * Tool summaries for the UI. Comes from the gate's catalog (only the gate may import
   * tools/registry). When absent, `tools:list` answers UNAVAILABLE: the page says so instead of
   * showing an empty list that looks like "no tools".
   */
  readonly listTools?: () => readonly ToolSummary[] | Promise<readonly ToolSummary[]>;
  /** Chat and approvals; absent (no session could open) → UNAVAILABLE. */
  readonly session?: SessionHandlers;
}

export function createAppHandlers(deps: AppHandlerDeps): IpcHandlers {
  const unavailable = () => ipcFail<never>('UNAVAILABLE', 'no working session is open in the desktop app');
  return {
    'app:info': () => ipcOk({ version: deps.version, lang: typeof deps.lang === 'function' ? deps.lang() : deps.lang }),
    'tools:list': async () => {
      if (!deps.listTools) return ipcFail('UNAVAILABLE', 'the tool catalog is not connected to the desktop app yet');
      const tools = await deps.listTools();
      // Copy to plain summaries: whatever the source object carries (schemas, functions) stays in main.
      return ipcOk(
        tools.map((t) => ({ name: t.name, family: t.family, risk: t.risk, description: { ko: t.description.ko, en: t.description.en } })),
      );
    },
    'settings:get': deps.settings?.['settings:get'] ?? unavailable,
    'settings:set-lang': deps.settings?.['settings:set-lang'] ?? unavailable,
    'model:status': deps.settings?.['model:status'] ?? unavailable,
    'model:check': deps.settings?.['model:check'] ?? unavailable,
    'model:use': deps.settings?.['model:use'] ?? unavailable,
    'policy:view': deps.settings?.['policy:view'] ?? unavailable,
    'grants:list': deps.settings?.['grants:list'] ?? (() => ipcOk([])),
    'grants:revoke': deps.settings?.['grants:revoke'] ?? unavailable,
    'chat:send': deps.session?.['chat:send'] ?? unavailable,
    'chat:stop': deps.session?.['chat:stop'] ?? unavailable,
    'conversations:list': deps.session?.['conversations:list'] ?? (() => ipcOk([])),
    'conversations:load': deps.session?.['conversations:load'] ?? unavailable,
    'approval:pending': deps.session?.['approval:pending'] ?? (() => ipcOk([])),
    'approval:answer': deps.session?.['approval:answer'] ?? unavailable,
    'notices:list': deps.session?.['notices:list'] ?? (() => ipcOk([])),
    'audit:page': deps.session?.['audit:page'] ?? unavailable,
    'audit:verify': deps.session?.['audit:verify'] ?? unavailable,
    'audit:export': deps.session?.['audit:export'] ?? unavailable,
    'audit:checkpoint': deps.session?.['audit:checkpoint'] ?? unavailable,
  };
}
