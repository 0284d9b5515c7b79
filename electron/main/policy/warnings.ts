import { accessSync, constants, statSync } from 'node:fs';
import type { SubjectKind } from '../../common/domain';
import { text } from '../../common/i18n';
import { jsonPath } from './json-path';
import { pathApi } from './paths';
import { hasShellMetacharacter } from './patterns';
import { parseRule, unknownToolMessage } from './rule-syntax';
import type { Policy, PolicyProblem } from './types';

/**
 * What `baram policy check` warns about (issue 15, item 11): a policy that loads but would hurt at
 * run time — a refusal the administrator did not mean, or a rule that protects nothing. Warnings
 * do not stop the policy from loading: a program installed later or an MCP tool added at run time
 * can make them true. What is dangerous rather than useless (a trusted folder users can write)
 * is a problem instead (trusted-dirs.ts).
 */

export interface ToolShape {
  readonly name: string;
  readonly subjectKind: SubjectKind | null;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  if (!isFile(file)) return false;
  if (platform === 'win32') return true;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findsProgram(name: string, dirs: readonly string[], platform: NodeJS.Platform): boolean {
  const api = pathApi(platform);
  const names = platform === 'win32' ? [`${name}.exe`, `${name}.com`, name] : [name];
  return dirs.some((dir) => names.some((n) => isExecutableFile(api.join(dir, n), platform)));
}

function missingCommands(policy: Policy, platform: NodeJS.Platform): PolicyProblem[] {
  const dirs = policy.shell.trustedDirs;
  return Object.keys(policy.shell.commands)
    .filter((name) => !findsProgram(name, dirs, platform))
    .map((name) => ({
      path: jsonPath(['shell', 'commands', name]),
      message: text(
        `'${name}' 프로그램이 신뢰 폴더(${dirs.join(', ')}) 어디에도 없어 실행 때마다 거절됩니다. 프로그램을 설치하거나, 있는 폴더를 shell.trustedDirs에 더하세요.`,
        `The program '${name}' is in none of the trusted folders (${dirs.join(', ')}), so every call of it will be refused. Install it, or add the folder that holds it to shell.trustedDirs.`,
      ),
    }));
}

function missingKeyFiles(policy: Policy): PolicyProblem[] {
  return Object.entries(policy.ssh.hosts).flatMap(([name, host]) => {
    if (host.identityFile === undefined || isFile(host.identityFile)) return [];
    return [{
      path: jsonPath(['ssh', 'hosts', name, 'identityFile']),
      message: text(
        `SSH 키 파일 ${host.identityFile}이(가) 없어 ${name}에 접속할 수 없습니다. 키 파일을 그 자리에 두거나 identityFile을 고치세요.`,
        `The SSH key file ${host.identityFile} does not exist, so ${name} cannot be connected to. Put the key there, or fix identityFile.`,
      ),
    }];
  });
}

/** Rules that can never match: an unknown tool, or a metacharacter in an allow pattern for a command. */
function deadRules(policy: Policy, tools: readonly ToolShape[]): PolicyProblem[] {
  const names = tools.map((t) => t.name);
  const problems: PolicyProblem[] = [];
  for (const list of ['allow', 'ask', 'deny'] as const) {
    policy.rules[list].forEach((rule, i) => {
      const parsed = parseRule(rule);
      if (!parsed.ok) return; // a problem already
      const path = jsonPath(['rules', list, i]);
      const unknown = unknownToolMessage(parsed.rule, names);
      if (unknown) {
        problems.push({ path, message: text(`${unknown.ko} 이 규칙은 아무 호출에도 맞지 않습니다.`, `${unknown.en} This rule matches no call.`) });
        return;
      }
      const { tool, pattern } = parsed.rule;
      const command = tools.some((t) => t.subjectKind === 'COMMAND' && t.name === tool);
      if (list === 'allow' && command && pattern !== null && hasShellMetacharacter(pattern)) {
        problems.push({
          path,
          message: text(
            `'${rule}'에 셸 특수 문자(; | & \` $ > < ( ))가 있습니다. 그런 문자가 든 명령은 허용 규칙에 절대 맞지 않으므로(SPEC G-PERM) 이 규칙은 아무것도 허용하지 않습니다. 특수 문자 없는 명령이나 '명령:*' 접두어로 쓰세요.`,
            `'${rule}' contains a shell metacharacter (; | & \` $ > < ( )). A command with one never matches an allow rule (SPEC G-PERM), so this rule allows nothing. Write a command without them, or a prefix ending in ':*'.`,
          ),
        });
      }
    });
  }
  policy.tests.forEach((t, i) => {
    if (names.includes(t.tool)) return;
    problems.push({
      path: jsonPath(['tests', i, 'tool']),
      message: text(`'${t.tool}'라는 도구는 없어 이 예시는 아무것도 확인하지 못합니다. 'baram tools'에 나오는 이름을 쓰세요.`, `No tool is named '${t.tool}', so this example checks nothing. Use a name from 'baram tools'.`),
    });
  });
  return problems;
}

/** `/`, `C:\` or a share's root: every file of the machine (or the drive) within reach of the tools. */
function wholeDriveRoots(policy: Policy, platform: NodeJS.Platform): PolicyProblem[] {
  const api = pathApi(platform);
  return policy.workspaceRoots.flatMap((root, i) =>
    api.parse(root).root === root
      ? [{
          path: jsonPath(['workspaceRoots', i]),
          message: text(
            `작업 공간 ${root}은(는) 드라이브 전체여서 파일 도구가 컴퓨터의 모든 파일(다른 사용자와 시스템 파일 포함)에 닿습니다. 업무 폴더(예: ~/Documents/Baram)로 좁히세요.`,
            `The workspace ${root} is a whole drive, so file tools reach every file on it (other users' and the system's too). Narrow it to a work folder (e.g. ~/Documents/Baram).`,
          ),
        }]
      : [],
  );
}

export function policyWarnings(policy: Policy, tools: readonly ToolShape[], platform: NodeJS.Platform = process.platform): PolicyProblem[] {
  return [...missingCommands(policy, platform), ...missingKeyFiles(policy), ...deadRules(policy, tools), ...wholeDriveRoots(policy, platform)];
}
