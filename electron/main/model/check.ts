import { basename } from 'node:path';
import Ajv from 'ajv';
import { text, type Text } from '../../common/i18n';
import type { GenerateRequest, ModelBackend, ModelEvent } from './backend';
import { EmbeddedBackend, type EmbeddedBackendOptions } from './embedded';
import { checkGguf } from './gguf';
import { detailOf, M } from './messages';
import { OllamaBackend } from './ollama';
import { openAiBaseUrl, OpenAiBackend } from './openai';

/**
 * `baram model check --model URL|FILE.gguf` and the settings screen: what answers there, and
 * whether it really constrains output. The probe asks for a schema an unconstrained model would
 * not produce by chance and validates the answer with ajv — servers fail open with HTTP 200
 * (notes trap 1: the flat `response_format`, vLLM's removed `guided_json`, an uncompilable grammar).
 */
export type ServerKind = 'llama-server' | 'ollama' | 'vllm' | 'lmstudio' | 'openai' | 'embedded';

export interface ModelCheck {
  readonly target: string;
  readonly kind: ServerKind | null;
  readonly model: string | null;
  readonly contextLength: number | null;
  /** null: could not be determined. */
  readonly nativeTools: boolean | null;
  readonly constrainedOutputWorks: boolean | null;
  readonly problems: readonly Text[];
}

export interface CheckOptions {
  readonly signal?: AbortSignal;
  /** Bearer token for servers started with `--api-key`. */
  readonly apiKey?: string;
  /** Run the constrained-output probe (one short generation). Default true. */
  readonly probe?: boolean;
  /** Embedded only: engine options (threads, context size). */
  readonly embedded?: Omit<EmbeddedBackendOptions, 'modelPath'>;
}

/** The probe: an integer no model says unprompted, under a key nobody writes. */
export const PROBE_SCHEMA = {
  type: 'object',
  properties: { baram_probe: { type: 'integer', enum: [7341] }, word: { type: 'string', maxLength: 12 } },
  required: ['baram_probe', 'word'],
  additionalProperties: false,
} as const;

const PROBE_REQUEST: Omit<GenerateRequest, 'signal'> = {
  messages: [{ role: 'user', content: 'Say hello in one word.' }],
  tools: [],
  responseSchema: PROBE_SCHEMA,
  maxTokens: 48,
  temperature: 0,
};

export async function checkModel(target: URL | string, options: CheckOptions = {}): Promise<ModelCheck> {
  const isUrl = target instanceof URL || /^https?:\/\//i.test(target);
  return isUrl ? checkServer(new URL(String(target)), options) : checkFile(String(target), options);
}

async function checkFile(path: string, options: CheckOptions): Promise<ModelCheck> {
  const header = checkGguf(path);
  if (!header.ok) {
    return { target: path, kind: 'embedded', model: null, contextLength: null, nativeTools: null, constrainedOutputWorks: null, problems: [M.modelFile(path, header.problem.en)] };
  }
  const info = header.info;
  const problems: Text[] = [];
  const template = info.chatTemplate;
  let constrained: boolean | null = null;
  if (options.probe !== false) {
    const backend = new EmbeddedBackend({ modelPath: path, ...options.embedded });
    try {
      constrained = await probe(backend, options.signal, problems);
    } finally {
      await backend.close();
    }
  }
  return {
    target: path,
    kind: 'embedded',
    model: info.name ?? basename(path),
    contextLength: info.contextLength ?? null,
    nativeTools: template === undefined ? null : /\btools\b/.test(template),
    constrainedOutputWorks: constrained,
    problems,
  };
}

async function getJson(url: string, signal: AbortSignal | undefined, init: RequestInit = {}, apiKey?: string): Promise<{ status: number; body: any } | { error: unknown }> {
  try {
    const headers = { ...(init.headers as Record<string, string> | undefined), ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
    const res = await fetch(url, { ...init, headers, ...(signal ? { signal } : {}) });
    const textBody = await res.text();
    let body: unknown = textBody;
    try {
      body = JSON.parse(textBody);
    } catch {
      // not JSON
    }
    return { status: res.status, body };
  } catch (error) {
    return { error };
  }
}

async function checkServer(url: URL, options: CheckOptions): Promise<ModelCheck> {
  const signal = options.signal;
  const get = (u: string, init: RequestInit = {}) => getJson(u, signal, init, options.apiKey);
  const origin = url.href.replace(/\/+$/, '').replace(/\/(v1|api)$/, '');
  const problems: Text[] = [];
  const [props, version, models] = await Promise.all([
    get(`${origin}/props`),
    get(`${origin}/api/version`),
    get(`${openAiBaseUrl(origin)}/models`),
  ]);
  if ('error' in props && 'error' in version && 'error' in models) {
    return { target: url.href, kind: null, model: null, contextLength: null, nativeTools: null, constrainedOutputWorks: null, problems: [M.connect(origin, detailOf(models.error))] };
  }
  const ok = (r: typeof props): r is { status: number; body: any } => !('error' in r) && r.status >= 200 && r.status < 300 && typeof r.body === 'object' && r.body !== null;

  let kind: ServerKind = 'openai';
  let model: string | null = null;
  let contextLength: number | null = null;
  let nativeTools: boolean | null = null;
  const list: any[] = ok(models) && Array.isArray(models.body.data) ? models.body.data : [];
  if (list[0] && typeof list[0].id === 'string') model = list[0].id;

  if (ok(props) && (props.body.default_generation_settings || props.body.chat_template !== undefined)) {
    kind = 'llama-server';
    const n = props.body.default_generation_settings?.n_ctx ?? props.body.n_ctx;
    if (typeof n === 'number') contextLength = n;
    const caps = props.body.chat_template_caps;
    if (caps && typeof caps.supports_tools === 'boolean') nativeTools = caps.supports_tools;
    else if (typeof props.body.chat_template === 'string') nativeTools = /\btools\b/.test(props.body.chat_template);
    if (!model && typeof props.body.model_path === 'string') model = basename(props.body.model_path);
  } else if (ok(version) && typeof version.body.version === 'string') {
    kind = 'ollama';
    const tags = await get(`${origin}/api/tags`);
    const names: string[] = ok(tags) && Array.isArray(tags.body.models) ? tags.body.models.map((m: any) => m.name).filter((n: unknown) => typeof n === 'string') : [];
    model = names[0] ?? model;
    if (model) {
      const show = await get(`${origin}/api/show`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model }) });
      if (ok(show)) {
        const caps = show.body.capabilities;
        if (Array.isArray(caps)) nativeTools = caps.includes('tools');
        const info = show.body.model_info ?? {};
        for (const [k, v] of Object.entries(info)) if (k.endsWith('.context_length') && typeof v === 'number') contextLength = v;
      }
    }
    problems.push(
      text(
        'Ollama는 기본 컨텍스트(4096 토큰)를 넘는 프롬프트를 조용히 자릅니다. 바람은 /api/chat에서 num_ctx를 직접 지정합니다. /v1 주소를 쓰려면 관리자가 OLLAMA_CONTEXT_LENGTH를 늘려야 합니다.',
        'Ollama silently cuts prompts beyond its default context (4096 tokens). Baram sets num_ctx itself on /api/chat; to use the /v1 address, the administrator must raise OLLAMA_CONTEXT_LENGTH.',
      ),
    );
  } else if (list.some((m) => m && m.owned_by === 'vllm')) {
    kind = 'vllm';
    const m = list.find((x) => typeof x?.max_model_len === 'number');
    if (m) contextLength = m.max_model_len;
  } else {
    const lm = await get(`${origin}/api/v0/models`);
    if (ok(lm) && Array.isArray(lm.body.data)) {
      kind = 'lmstudio';
      const m = lm.body.data.find((x: any) => x?.id === model) ?? lm.body.data[0];
      if (m && typeof m.max_context_length === 'number') contextLength = m.max_context_length;
    }
  }
  if (!model) problems.push(text('서버가 모델 목록을 주지 않았습니다 (/v1/models).', 'The server listed no model (/v1/models).'));

  const backend: ModelBackend = kind === 'ollama' ? new OllamaBackend({ baseUrl: origin, ...(model ? { model } : {}) }) : new OpenAiBackend({ baseUrl: origin, ...(model ? { model } : {}), ...(options.apiKey ? { apiKey: options.apiKey } : {}) });

  if (nativeTools === null && kind !== 'ollama' && options.probe !== false) {
    // Ask with one tool: vLLM without --enable-auto-tool-choice answers 400 (a clean signal).
    const events = await gather(backend, {
      messages: [{ role: 'user', content: 'Hello' }],
      tools: [{ name: 'baram.ping', description: 'Does nothing.', parameters: { type: 'object', properties: {}, additionalProperties: false } }],
      maxTokens: 8,
      ...(signal ? { signal } : {}),
    });
    const err = events.find((e): e is Extract<ModelEvent, { type: 'error' }> => e.type === 'error');
    nativeTools = !err;
    if (err) problems.push(text(`도구 호출(tools)을 받지 않습니다: ${err.message.ko}`, `Native tool calls are not accepted: ${err.message.en}`));
  }
  if (nativeTools === false && !problems.some((p) => p.en.startsWith('Native tool calls'))) {
    problems.push(text('이 모델/서버는 네이티브 도구 호출을 지원하지 않습니다. 바람은 제약 출력으로 도구를 부릅니다.', 'This model/server has no native tool calls; Baram calls tools through constrained output.'));
  }

  let constrained: boolean | null = null;
  if (options.probe !== false) constrained = await probe(backend, signal, problems);
  return { target: url.href, kind, model, contextLength, nativeTools, constrainedOutputWorks: constrained, problems };
}

async function gather(backend: ModelBackend, request: GenerateRequest): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const e of backend.generate(request)) events.push(e);
  return events;
}

async function probe(backend: ModelBackend, signal: AbortSignal | undefined, problems: Text[]): Promise<boolean | null> {
  const events = await gather(backend, { ...PROBE_REQUEST, ...(signal ? { signal } : {}) });
  const err = events.find((e): e is Extract<ModelEvent, { type: 'error' }> => e.type === 'error');
  if (err) {
    problems.push(text(`제약 출력 시험이 실패했습니다: ${err.message.ko}`, `The constrained-output probe failed: ${err.message.en}`));
    return err.code === 'connect' || err.code === 'aborted' ? null : false;
  }
  const answer = events.map((e) => (e.type === 'text' ? e.delta : '')).join('');
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch {
    value = undefined;
  }
  const validate = new Ajv({ strict: false }).compile(PROBE_SCHEMA);
  if (value !== undefined && validate(value)) return true;
  problems.push(
    text(
      `서버가 JSON 스키마를 받고도 따르지 않았습니다 (제약 없는 출력: ${JSON.stringify(answer.slice(0, 80))}). 바람이 모든 호출을 다시 검증하지만, 작은 모델은 실패가 잦아집니다.`,
      `The server accepted the JSON schema but did not follow it (unconstrained output: ${JSON.stringify(answer.slice(0, 80))}). Baram validates every call again, but small models will fail more often.`,
    ),
  );
  return false;
}
