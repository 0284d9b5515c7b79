import { homedir } from 'node:os';
import { pick, text, type Lang } from '../../common/i18n';
import { toolCatalog } from '../gate/catalog';
import { loadPolicyFile, mergePolicies, parseUserSettings, policyWarnings, readPolicyText, unsafeTrustedDirProblems } from '../policy';
import type { EffectivePolicy, PolicyProblem, ToolRisk } from '../policy/types';
import { checkPolicyTests } from '../runtime/policy-tests';
import { flagString, parseArgs, UsageError } from './args';
import { langFlag } from './session-flags';

/**
 * `baram policy check FILE [--settings FILE] [--lang ko|en]`: every problem with its JSON path,
 * then the policy's embedded tests (through the tools' prechecks), then warnings about what would
 * hurt at run time; with --settings, whether a user's settings fit within this policy (issue 15,
 * items 9–13). Exit 0 when the policy (and the settings) would load, 1 otherwise; warnings alone
 * do not fail the check.
 */
export async function checkPolicyCommand(rest: readonly string[]): Promise<number> {
  const args = parseArgs(rest, ['settings', 'lang'], []);
  const lang = langFlag(flagString(args, 'lang'));
  const [file, ...extra] = args.positional;
  if (!file || extra.length > 0) {
    throw new UsageError(text('사용법: baram policy check FILE [--settings FILE] [--lang ko|en]', 'Usage: baram policy check FILE [--settings FILE] [--lang ko|en]'));
  }
  const settingsFile = flagString(args, 'settings');
  const out = (line: string) => process.stdout.write(`${line}\n`);

  const loaded = await loadPolicyFile(file);
  if (!loaded.ok) return report(file, loaded.problems, lang);
  const merged = mergePolicies(loaded.value, 'admin');
  if (!merged.ok) return report(file, merged.problems, lang);
  const p = merged.value.policy;
  const catalog = toolCatalog();
  const unsafe = unsafeTrustedDirProblems(p.shell.trustedDirs, p.workspaceRoots, process.platform);
  const roots = p.workspaceRoots.length > 0 ? p.workspaceRoots : [process.cwd()];
  const tests = unsafe.length > 0 ? { problems: unsafe, warnings: [] } : await checkPolicyTests(merged.value, roots, lang);
  const warnings = [...policyWarnings(p, catalog), ...tests.warnings];
  const problems = tests.problems;
  if (problems.length > 0) {
    report(file, problems, lang);
    printWarnings(file, warnings, lang);
    return 1;
  }
  out(`OK ${file}`);
  out(
    pick(
      text(
        `  규칙: 허용 ${p.rules.allow.length}, 확인 ${p.rules.ask.length}, 거부 ${p.rules.deny.length}; 셸 명령 ${Object.keys(p.shell.commands).length}개; 예시 ${p.tests.length}개 통과`,
        `  rules: ${p.rules.allow.length} allow, ${p.rules.ask.length} ask, ${p.rules.deny.length} deny; ${Object.keys(p.shell.commands).length} shell commands; ${p.tests.length} embedded tests passed`,
      ),
      lang,
    ),
  );
  out(pick(text(`  다이제스트: ${merged.value.digest}`, `  digest: ${merged.value.digest}`), lang));
  printWarnings(file, warnings, lang);
  if (settingsFile === undefined) return 0;
  return checkSettings(settingsFile, merged.value, catalog, lang);
}

/** A user's settings against this policy: parsed as the session parses them, merged tighten-only. */
async function checkSettings(file: string, admin: EffectivePolicy, tools: readonly ToolRisk[], lang: Lang): Promise<number> {
  const read = await readPolicyText(file, 'settings');
  const parsed = read.ok ? parseUserSettings(read.value, homedir()) : read;
  if (!parsed.ok) return report(file, parsed.problems, lang);
  const merged = mergePolicies(admin.policy, 'admin', parsed.value, process.platform, tools);
  if (!merged.ok) return report(file, merged.problems, lang);
  process.stdout.write(`OK ${file}\n${pick(text('  설정이 관리자 정책 안에 있습니다(조이기만 함).', "  the settings stay within the administrator's policy (they only tighten)."), lang)}\n`);
  return 0;
}

function report(file: string, problems: readonly PolicyProblem[], lang: Lang): number {
  printList(file, problems, lang, 'problem');
  return 1;
}

function printWarnings(file: string, warnings: readonly PolicyProblem[], lang: Lang): void {
  if (warnings.length > 0) printList(file, warnings, lang, 'warning');
}

function printList(file: string, items: readonly PolicyProblem[], lang: Lang, kind: 'problem' | 'warning'): void {
  const n = items.length;
  const header = text(`${file}: ${kind === 'problem' ? '문제' : '경고'} ${n}개`, `${file}: ${n} ${kind}${n === 1 ? '' : 's'}`);
  process.stdout.write(`${pick(header, lang)}\n`);
  for (const item of items) process.stdout.write(`  ${item.path}: ${pick(item.message, lang)}\n`);
}
