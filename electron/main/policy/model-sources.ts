import { isIPv4 } from 'node:net';
import { text, type Text } from '../../common/i18n';
import { absoluteDir } from './checks';
import { DEFAULT_MODEL_POLICY } from './defaults';
import { jsonPath } from './json-path';
import { isInsideResolved, pathApi } from './paths';
import { urlMatcher } from './patterns';
import { urlAmbiguity } from './url-shape';
import type { EffectivePolicy, ModelPolicy, PolicyProblem } from './types';

/**
 * Which model servers and GGUF files Baram may use (issue 16; docs/2026-12-03-model-policy.md).
 * A prompt carries the user's documents, so a server the administrator did not list must never see
 * one, and a GGUF file is code-like input to a native engine. Endpoints are URL prefixes with the
 * same meaning as http.allow (scheme, host, port, path prefix), plus the word `loopback` for any
 * port on this machine (127.0.0.0/8, ::1, localhost). Files are absolute files or folders; a
 * folder covers the files below it, as written and after following links.
 * No `model` section: `loopback` only, and no GGUF file.
 */

export const LOOPBACK = 'loopback';

export type ModelSource = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'file'; readonly path: string };

export type ModelSourceVerdict = { readonly ok: true } | { readonly ok: false; readonly message: Text };

function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

function parseHttpUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password || urlAmbiguity(url, raw) !== null) return null;
    return url;
  } catch {
    return null;
  }
}

function endpointCovers(entry: string, url: URL): boolean {
  if (entry === LOOPBACK) return isLoopbackUrl(url);
  return urlMatcher(entry)?.(url.href) ?? false;
}

function fileCovers(entry: string, file: string, platform: NodeJS.Platform): boolean {
  return isInsideResolved(file, entry, platform);
}

function allowedBy(model: ModelPolicy, source: ModelSource, platform: NodeJS.Platform): boolean {
  if (source.kind === 'url') {
    const url = parseHttpUrl(source.url);
    return url !== null && model.endpoints.some((e) => endpointCovers(e, url));
  }
  const api = pathApi(platform);
  if (!api.isAbsolute(source.path)) return false;
  const file = api.normalize(source.path);
  return model.files.some((e) => fileCovers(e, file, platform));
}

const ASK_ADMIN = text('다른 것을 쓰려면 관리자에게 정책의 model 항목에 넣어 달라고 하세요.', "To use another one, ask the administrator to list it in the policy's model section.");

/**
 * Whether the session may use this model server or GGUF file: the administrator's list and, when
 * user settings narrowed it, the user's too (fail closed: an unreadable URL or a relative path is
 * refused). The message says what is allowed and whom to ask.
 */
export function modelSourceAllowed(policy: EffectivePolicy, source: ModelSource, platform: NodeJS.Platform = process.platform): ModelSourceVerdict {
  const lists = [policy.policy.model, ...(policy.adminOnly ? [policy.adminOnly.policy.model] : [])];
  if (lists.every((m) => allowedBy(m, source, platform))) return { ok: true };
  const model = policy.policy.model;
  if (source.kind === 'url') {
    const allowed = model.endpoints.map((e) => (e === LOOPBACK ? text('이 컴퓨터(127.0.0.1, localhost)', 'this computer (127.0.0.1, localhost)') : text(e, e)));
    const list = { ko: allowed.map((a) => a.ko).join(', ') || '없음', en: allowed.map((a) => a.en).join(', ') || 'none' };
    return {
      ok: false,
      message: text(
        `관리자가 모델 서버 ${source.url}을(를) 허용하지 않았습니다. 허용된 서버: ${list.ko}. ${ASK_ADMIN.ko}`,
        `The administrator has not allowed the model server ${source.url}. Allowed servers: ${list.en}. ${ASK_ADMIN.en}`,
      ),
    };
  }
  const list = model.files.join(', ');
  return {
    ok: false,
    message: text(
      `관리자가 모델 파일 ${source.path}을(를) 허용하지 않았습니다. 허용된 파일과 폴더: ${list || '없음'}. ${ASK_ADMIN.ko}`,
      `The administrator has not allowed the model file ${source.path}. Allowed files and folders: ${list || 'none'}. ${ASK_ADMIN.en}`,
    ),
  };
}

/** A `model` section as written (policy or settings): prefixes checked, files made absolute; each bad entry is a problem. */
export function checkModelSection(
  raw: { readonly endpoints?: readonly string[]; readonly files?: readonly string[] },
  home: string,
  platform: NodeJS.Platform,
): { model: Partial<ModelPolicy>; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  (raw.endpoints ?? []).forEach((entry, i) => {
    if (entry === LOOPBACK || (parseHttpUrl(entry) !== null && urlMatcher(entry) !== null)) return;
    problems.push({
      path: jsonPath(['model', 'endpoints', i]),
      message: text(
        `'${entry}'은(는) 모델 서버 주소가 아닙니다. 'http://127.0.0.1:8080/'처럼 http(s) 주소 앞부분(사용자 이름, ?, # 없이)을 쓰거나, 이 컴퓨터의 모든 포트를 뜻하는 'loopback'을 쓰세요.`,
        `'${entry}' is not a model server address. Write an http(s) prefix such as 'http://127.0.0.1:8080/' (no user name, query or fragment), or 'loopback' for any port on this computer.`,
      ),
    });
  });
  const files: string[] = [];
  (raw.files ?? []).forEach((entry, i) => {
    const checked = absoluteDir(entry, home, platform, 'file');
    if (checked.ok) files.push(checked.path);
    else problems.push({ path: jsonPath(['model', 'files', i]), message: checked.message });
  });
  return { model: { ...(raw.endpoints ? { endpoints: raw.endpoints } : {}), ...(raw.files ? { files } : {}) }, problems };
}

/**
 * The administrator's lists. A section replaces the default as a whole: a field it leaves out is
 * empty (an admin who lists files only has allowed no server), which fails closed.
 */
export function adminModelPolicy(section: Partial<ModelPolicy> | undefined): ModelPolicy {
  return section === undefined ? DEFAULT_MODEL_POLICY : { endpoints: section.endpoints ?? [], files: section.files ?? [] };
}

/** User settings narrow field by field: a field they leave out stays the administrator's. */
export function mergedModelPolicy(admin: ModelPolicy, user: Partial<ModelPolicy> | undefined): ModelPolicy {
  return { endpoints: user?.endpoints ?? admin.endpoints, files: user?.files ?? admin.files };
}

/** User settings may only narrow the model lists: each entry must lie within the administrator's. */
export function widerModelProblems(admin: ModelPolicy, user: Partial<ModelPolicy> | undefined, platform: NodeJS.Platform): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  (user?.endpoints ?? []).forEach((entry, i) => {
    const url = entry === LOOPBACK ? null : parseHttpUrl(entry);
    const covered = entry === LOOPBACK ? admin.endpoints.includes(LOOPBACK) : url !== null && admin.endpoints.some((e) => endpointCovers(e, url));
    if (covered) return;
    problems.push({
      path: jsonPath(['model', 'endpoints', i]),
      message: text(
        `사용자 설정은 모델 서버를 좁히기만 할 수 있는데, '${entry}'은(는) 관리자가 허용한 서버(${admin.endpoints.join(', ') || '없음'}) 밖입니다. 이 항목을 지우거나 관리자에게 정책에 넣어 달라고 하세요.`,
        `User settings may only narrow the model servers, and '${entry}' is outside the administrator's (${admin.endpoints.join(', ') || 'none'}). Remove it, or ask the administrator to list it in the policy.`,
      ),
    });
  });
  (user?.files ?? []).forEach((entry, i) => {
    if (admin.files.some((a) => fileCovers(a, entry, platform))) return;
    problems.push({
      path: jsonPath(['model', 'files', i]),
      message: text(
        `사용자 설정은 모델 파일을 좁히기만 할 수 있는데, '${entry}'은(는) 관리자가 허용한 파일과 폴더(${admin.files.join(', ') || '없음'}) 밖입니다. 이 항목을 지우거나 관리자에게 정책에 넣어 달라고 하세요.`,
        `User settings may only narrow the model files, and '${entry}' is outside the administrator's (${admin.files.join(', ') || 'none'}). Remove it, or ask the administrator to list it in the policy.`,
      ),
    });
  });
  return problems;
}
