import { text } from '../../common/i18n';
import { dirListProblems, ruleProblems } from './checks';
import { parseJsonc } from './jsonc';
import type { PolicyLoadOptions } from './load';
import { checkModelSection } from './model-sources';
import { schemaProblems, type UnknownFieldHint } from './schema-problems';
import { UserSettingsSchema, type UserSettingsFile } from './schema';
import type { PolicyLoad, UserSettings } from './types';

/**
 * User settings: the part of the policy a user may change, which can only tighten (DESIGN idiom 4).
 * Whether a setting actually tightens depends on the administrator's policy and is judged in
 * mergePolicies; here only the file itself is checked, with the same error quality as a policy.
 */

const ADMIN_ONLY_SECTIONS = new Set(['version', 'shell', 'http', 'browser', 'ssh', 'schemaValidation', 'approval', 'audit', 'tests']);

const explainAdminOnly: UnknownFieldHint = (segments, field) => {
  if (segments.length === 0 && ADMIN_ONLY_SECTIONS.has(field)) {
    return text(
      `'${field}'은(는) 관리자 정책에서만 정할 수 있습니다. 사용자 설정에는 workspaceRoots, defaults, rules(ask, deny, dropAllow), model만 쓸 수 있습니다.`,
      `'${field}' can only be set in the administrator's policy. User settings may set workspaceRoots, defaults, rules (ask, deny, dropAllow) and model.`,
    );
  }
  if (segments.length === 1 && segments[0] === 'rules' && field === 'allow') {
    return text(
      "사용자 설정으로는 허용(allow) 규칙을 더할 수 없습니다. 관리자 정책만 할 수 있습니다. 더 조이려면 'ask'나 'deny'를, 관리자의 허용 규칙을 빼려면 'dropAllow'를 쓰세요.",
      "User settings cannot add allow rules; only the administrator's policy can. Use 'ask' or 'deny' to tighten, or 'dropAllow' to remove one of the administrator's allow rules.",
    );
  }
  return undefined;
};

export function parseUserSettings(text: string, home: string, options: PolicyLoadOptions = {}): PolicyLoad<UserSettings> {
  const platform = options.platform ?? process.platform;
  const parsed = parseJsonc(text);
  if (!parsed.ok) return parsed;
  const schema = schemaProblems(UserSettingsSchema, parsed.value, explainAdminOnly);
  if (schema.length > 0) return { ok: false, problems: schema };
  const file = parsed.value as UserSettingsFile;
  const rules = file.rules ?? {};
  const roots = dirListProblems(file.workspaceRoots, ['workspaceRoots'], home, platform);
  const model = file.model ? checkModelSection(file.model, home, platform) : undefined;
  const problems = [...ruleProblems({ ask: rules.ask, deny: rules.deny, dropAllow: rules.dropAllow }, ['rules'], options.knownTools), ...roots.problems, ...(model?.problems ?? [])];
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      ...(file.workspaceRoots ? { workspaceRoots: roots.dirs } : {}),
      ...(file.defaults ? { defaults: { ...file.defaults } } : {}),
      ...(file.rules ? { rules: { ask: rules.ask ?? [], deny: rules.deny ?? [], dropAllow: rules.dropAllow ?? [] } } : {}),
      ...(model ? { model: model.model } : {}),
    },
  };
}
