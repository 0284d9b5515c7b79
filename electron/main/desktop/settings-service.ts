import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { RISKS } from '../../common/domain';
import { text, type Lang, type Text } from '../../common/i18n';
import { ipcFail, ipcOk, type IpcResult } from '../../common/ipc-contract';
import type { GrantView, ModelCheckView, ModelStatus, ModelUseResult, PolicyView, SettingsView } from '../../common/settings-view';
import { toolCatalog } from '../gate';
import { checkModel, createBackend } from '../model';
import { modelSourceAllowed, policyWarnings, type ModelSource, type SessionGrant } from '../policy';
import type { Session } from '../runtime/session';
import type { SettingsHandlers } from '../app/handlers';
import type { DesktopSettingsStore } from './desktop-settings';
import type { DesktopModel, ModelSlot } from './model-slot';

/**
 * The settings screen behind the contract (issue 17 scope 5): the UI language (saved), the model
 * among those the administrator allows (checked, chosen, saved), the effective policy read-only,
 * and the session's "allow for this session" grants (listed, revocable). A model the policy does
 * not list is never contacted or opened, and a check sends no prompt (a prompt carries documents).
 */
export interface SettingsServiceOptions {
  readonly session: Session;
  readonly store: DesktopSettingsStore;
  readonly models: ModelSlot;
  /** The language the app started in (when none is saved). */
  readonly startLang: Lang;
  /** The admin policy file the session loaded; absent: the built-in policy. */
  readonly policyFile?: string;
  /** Who acts in this window ("os:kim"), recorded with a revoked grant. */
  readonly user: string;
  /** True while a request runs: the model is not swapped under it. */
  readonly busy: () => boolean;
}

const MAX_GGUF_LISTED = 100;

export class SettingsService {
  constructor(private readonly o: SettingsServiceOptions) {}

  get lang(): Lang {
    return this.o.store.value.lang ?? this.o.startLang;
  }

  handlers(): SettingsHandlers {
    return {
      'settings:get': () => ipcOk(this.view()),
      'settings:set-lang': (r) => {
        this.o.store.update({ lang: r.lang });
        return ipcOk({ lang: r.lang });
      },
      'model:status': async () => ipcOk(await this.status()),
      'model:check': async (r) => ipcOk(await this.check(r.target)),
      'model:use': (r) => this.use(r.target),
      'policy:view': () => ipcOk(this.policy()),
      'grants:list': () => ipcOk(this.grants()),
      'grants:revoke': async (r) => {
        const revoked = await this.o.session.gate.revokeSessionGrants((g) => grantId(g) === r.id, this.o.user);
        return revoked > 0 ? ipcOk({ revoked }) : ipcFail('NOT_FOUND', 'no session grant has that id');
      },
    };
  }

  view(): SettingsView {
    const { endpoints, files } = this.o.session.policy.policy.model;
    return { lang: this.lang, modelTarget: this.o.models.current?.label ?? null, allowed: { endpoints, files, ggufFiles: ggufFilesIn(files) } };
  }

  async status(): Promise<ModelStatus> {
    const current = this.o.models.current;
    if (!current) {
      return {
        state: 'none',
        target: null,
        model: null,
        message: text('모델이 정해지지 않았습니다. 설정에서 관리자가 허용한 모델을 고르세요.', 'No model is chosen. Choose one the administrator allows in Settings.'),
      };
    }
    const check = await this.check(current.label);
    return { state: check.reachable ? 'connected' : 'unreachable', target: current.label, model: check.model, message: check.message };
  }

  async check(raw: string): Promise<ModelCheckView> {
    const target = raw.trim();
    const source = sourceOf(target);
    const refused = (message: Text): ModelCheckView => ({ target, allowed: false, reachable: false, model: null, kind: null, message, problems: [] });
    if ('problem' in source) return refused(source.problem);
    const verdict = modelSourceAllowed(this.o.session.policy, source);
    if (!verdict.ok) return refused(verdict.message);
    // No probe: checking the connection must not send a prompt (nor load an engine).
    const check = await checkModel(target, { probe: false, signal: AbortSignal.timeout(10_000) });
    // Connected means a model answered: a web server that lists no model is not one.
    const reachable = check.kind !== null && check.model !== null;
    const message = reachable
      ? text(`연결됨: 모델 ${check.model} (${check.kind})`, `Connected: model ${check.model} (${check.kind})`)
      : source.kind === 'url' && check.kind !== null
        ? text(
            `${target}에 서버가 있지만 모델 서버가 아니거나 모델이 올라와 있지 않습니다. 주소가 맞는지 관리자에게 확인하세요.`,
            `A server answers at ${target}, but it is not a model server or has no model loaded. Ask your administrator whether the address is right.`,
          )
      : source.kind === 'url'
        ? text(
            `연결할 수 없습니다. ${target}에서 아무것도 응답하지 않습니다. 모델 서버가 켜져 있는지, 주소와 포트 번호가 맞는지 확인하세요.`,
            `Cannot connect. Nothing answers at ${target}. Check that the model server is running and that the address and port are right.`,
          )
        : text(`모델 파일을 쓸 수 없습니다: ${target}. 아래 내용을 확인하세요.`, `The model file cannot be used: ${target}. See the details below.`);
    return { target, allowed: true, reachable, model: check.model, kind: check.kind, message, problems: check.problems };
  }

  async use(raw: string): Promise<IpcResult<ModelUseResult>> {
    if (this.o.busy()) return ipcFail('BUSY', 'a request is running; the model changes once it ends');
    const target = raw.trim();
    const source = sourceOf(target);
    if ('problem' in source) return ipcOk({ used: false, message: source.problem });
    const verdict = modelSourceAllowed(this.o.session.policy, source);
    if (!verdict.ok) return ipcOk({ used: false, message: verdict.message });
    const model: DesktopModel = { backend: createBackend(source.kind === 'url' ? source.url : source.path), label: target };
    await this.o.models.replace(model);
    this.o.store.update({ model: target });
    return ipcOk({ used: true, status: await this.status() });
  }

  policy(): PolicyView {
    const effective = this.o.session.policy;
    const p = effective.policy;
    const rules = (['deny', 'ask', 'allow'] as const).flatMap((decision) =>
      effective.rules[decision].map((r) => ({ decision, rule: r.text, source: r.source, locked: r.source === 'admin' })),
    );
    return {
      adminFile: this.o.policyFile ?? null,
      digest: effective.digest,
      workspaceRoots: this.o.session.roots,
      defaults: RISKS.map((risk) => ({ risk, decision: p.defaults[risk], source: effective.defaultSources[risk], locked: effective.defaultSources[risk] === 'admin' })),
      rules,
      shellCommands: Object.keys(p.shell.commands),
      httpAllow: p.http.allow,
      modelEndpoints: p.model.endpoints,
      modelFiles: p.model.files,
      approvalTimeoutSeconds: p.approval.timeoutSeconds,
      auditRetentionDays: p.audit.retentionDays,
      warnings: policyWarnings(p, toolCatalog()).map((w) => w.message),
    };
  }

  grants(): GrantView[] {
    return this.o.session.gate.sessionGrants().map((g) => ({ id: grantId(g), tool: g.tool, kind: g.kind, values: g.values }));
  }
}

/** The model chosen in settings, if the policy (which may have changed since) still allows it. */
export function savedModel(store: DesktopSettingsStore, session: Session, log: (message: string) => void): DesktopModel | null {
  const target = store.value.model;
  if (!target) return null;
  const source = sourceOf(target);
  if ('problem' in source || !modelSourceAllowed(session.policy, source).ok) {
    log(`the saved model ${target} is not allowed by the policy now; not using it`);
    return null;
  }
  return { backend: createBackend(target), label: target };
}

function sourceOf(target: string): ModelSource | { problem: Text } {
  if (/^https?:\/\//i.test(target)) return { kind: 'url', url: target };
  if (!/\.gguf$/i.test(target) && !isAbsolute(target)) {
    return {
      problem: text(
        `'${target}'은(는) 모델 서버 주소도 모델 파일도 아닙니다. http://127.0.0.1:8080 같은 주소나 .gguf 파일의 전체 경로를 쓰세요.`,
        `'${target}' is neither a model server address nor a model file. Write an address such as http://127.0.0.1:8080, or the full path of a .gguf file.`,
      ),
    };
  }
  if (!isAbsolute(target)) {
    return {
      problem: text(`모델 파일은 전체 경로로 쓰세요 (예: C:\\모델\\qwen.gguf). '${target}'은(는) 상대 경로입니다.`, `Write the model file's full path (for example C:\\models\\qwen.gguf); '${target}' is relative.`),
    };
  }
  return { kind: 'file', path: target };
}

/** The grant's name for the page: a digest, so a revoke names exactly the grant that was listed. */
function grantId(g: SessionGrant): string {
  return createHash('sha256').update(JSON.stringify([g.tool, g.kind, g.values])).digest('hex');
}

function ggufFilesIn(entries: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    try {
      if (!existsSync(entry)) continue;
      if (statSync(entry).isDirectory()) {
        for (const name of readdirSync(entry).sort()) if (/\.gguf$/i.test(name)) out.push(join(entry, name));
      } else if (/\.gguf$/i.test(entry)) {
        out.push(entry);
      }
    } catch {
      // An unreadable folder lists nothing; the check says why when the person tries a file in it.
    }
    if (out.length >= MAX_GGUF_LISTED) break;
  }
  return out.slice(0, MAX_GGUF_LISTED);
}
