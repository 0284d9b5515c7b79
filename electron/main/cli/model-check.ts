import { resolve } from 'node:path';
import { pick, text, type Lang } from '../../common/i18n';
import { modelSourceAllowed, type ModelSource } from '../policy';
import { adminPolicyIfPresent, defaultDataDir } from '../runtime/paths';
import { flagString, parseArgs, UsageError } from './args';
import { langFlag } from './session-flags';

/**
 * `baram model check --model URL|FILE.gguf [--policy FILE] [--settings FILE] [--json] [--lang]`:
 * what a model server or GGUF file can do — once the administrator's policy allows it (issue 16).
 * A source the policy does not list is never contacted or opened: a probe carries a prompt.
 */
export async function modelCheckCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['model', 'lang', 'policy', 'settings', 'data-dir'], ['json']);
  const lang = langFlag(flagString(args, 'lang'));
  const target = flagString(args, 'model');
  if (!target) {
    throw new UsageError(
      text(
        '--model이 없습니다. 예: baram model check --model http://127.0.0.1:8080 (또는 .gguf 파일)',
        'Missing --model. Example: baram model check --model http://127.0.0.1:8080 (or a .gguf file)',
      ),
    );
  }
  const source: ModelSource = /^https?:\/\//i.test(target) ? { kind: 'url', url: target } : { kind: 'file', path: resolve(target) };
  const { effectivePolicyFor } = await import('../runtime/session');
  const policy = await effectivePolicyFor({
    policyFile: flagString(args, 'policy') ?? adminPolicyIfPresent(),
    userSettingsFile: flagString(args, 'settings'),
    dataDir: flagString(args, 'data-dir') ?? defaultDataDir(),
    lang,
  });
  const allowed = modelSourceAllowed(policy, source);
  if (!allowed.ok) {
    const message = pick(allowed.message, lang);
    process.stdout.write(args.flags.has('json') ? `${JSON.stringify({ target, allowed: false, problems: [message] }, null, 2)}\n` : `- ${message}\n`);
    return 1;
  }
  const { checkModel } = await import('../model');
  const check = await checkModel(target);
  if (args.flags.has('json')) {
    process.stdout.write(`${JSON.stringify({ ...check, allowed: true, problems: check.problems.map((p) => p[lang]) }, null, 2)}\n`);
  } else {
    for (const [k, v] of rows(check, lang)) process.stdout.write(`${k}: ${v}\n`);
    for (const p of check.problems) process.stdout.write(`- ${p[lang]}\n`);
  }
  return check.problems.length === 0 ? 0 : 1;
}

type Check = Awaited<ReturnType<typeof import('../model')['checkModel']>>;

function rows(check: Check, lang: Lang): [string, string][] {
  const unknown = pick(text('알 수 없음', 'unknown'), lang);
  const yesNo = (v: boolean | null) => (v === null ? unknown : pick(v ? text('예', 'yes') : text('아니요', 'no'), lang));
  const label = (ko: string, en: string) => pick(text(ko, en), lang);
  return [
    [label('대상', 'target'), check.target],
    [label('종류', 'kind'), check.kind ?? unknown],
    [label('모델', 'model'), check.model ?? unknown],
    [label('문맥 길이', 'context length'), String(check.contextLength ?? unknown)],
    [label('도구 호출 지원', 'native tool calls'), yesNo(check.nativeTools)],
    [label('출력 제약 동작', 'constrained output works'), yesNo(check.constrainedOutputWorks)],
  ];
}
