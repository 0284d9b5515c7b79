import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { permissionSubjectOf } from '../gate';
import { loadPolicyFile, mergePolicies, runPolicyTests } from '../policy';
import { UsageError } from './args';

/**
 * `baram policy check FILE`: every problem with its JSON path, then the policy's embedded tests.
 * Exit 0 when the policy would load, 1 otherwise.
 */
export async function checkPolicyCommand(rest: readonly string[]): Promise<number> {
  const [file, ...extra] = rest;
  if (!file || extra.length > 0) throw new UsageError('Usage: baram policy check FILE');
  if (!existsSync(file)) {
    process.stderr.write(`baram: ${file} does not exist.\n`);
    return 1;
  }
  const loaded = await loadPolicyFile(file);
  if (!loaded.ok) return report(file, loaded.problems);
  const merged = mergePolicies(loaded.value, 'admin');
  if (!merged.ok) return report(file, merged.problems);
  const home = homedir();
  const roots = loaded.value.workspaceRoots.length > 0 ? loaded.value.workspaceRoots : [process.cwd()];
  const env = {
    roots: roots.map((r) => (existsSync(r) ? realpathSync(r) : r)),
    home,
    platform: process.platform,
    protectedPaths: [],
  };
  const problems = await runPolicyTests(merged.value, env, (tool, args) => permissionSubjectOf(tool, args));
  if (problems.length > 0) return report(file, problems);
  const p = merged.value.policy;
  process.stdout.write(
    `OK ${file}\n` +
      `  rules: ${p.rules.allow.length} allow, ${p.rules.ask.length} ask, ${p.rules.deny.length} deny; ` +
      `${Object.keys(p.shell.commands).length} shell commands; ${p.tests.length} embedded tests passed\n` +
      `  digest: ${merged.value.digest}\n`,
  );
  return 0;
}

function report(file: string, problems: readonly { path: string; message: string }[]): number {
  process.stdout.write(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`);
  for (const p of problems) process.stdout.write(`  ${p.path}: ${p.message}\n`);
  return 1;
}
