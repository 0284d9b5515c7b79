import { accessSync, constants, statSync } from 'node:fs';
import { text } from '../../common/i18n';
import { jsonPath } from './json-path';
import { isInside, realForm } from './paths';
import type { PolicyProblem } from './types';

/**
 * A trusted folder is where whitelisted programs are found (SPEC S-SHELL). If Baram's file tools,
 * or the user without an administrator, can put a file there, the whitelist is worth nothing: the
 * trial planted an executable `~/문서/ping` and ran it through shell.execute (issue 15, item 11).
 * So a policy whose trusted folder lies inside a workspace root, or is writable by the user running
 * Baram, does not load — at `policy check` and at every session start, where the roots are final.
 */

/**
 * Writable by this user. Not root: access(W_OK), which sees ACLs too. Root can write everywhere, so
 * there only folders writable by others (group or world bits) count: a root-owned /usr/bin is the
 * normal case. Windows ACLs are not read here (docs/2026-12-03-policy-check-warnings.md).
 */
function writableByUser(dir: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return false;
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch {
    return false; // a missing folder holds no program; `policy check` warns about the commands it lacks
  }
  if (process.getuid?.() === 0) return (mode & 0o022) !== 0;
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function unsafeTrustedDirProblems(trustedDirs: readonly string[], roots: readonly string[], platform: NodeJS.Platform): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  trustedDirs.forEach((dir, i) => {
    const path = jsonPath(['shell', 'trustedDirs', i]);
    // Either form: a trusted folder that is a link into the workspace is just as reachable.
    const root = roots.find((r) => isInside(dir, r, platform) || isInside(realForm(dir, platform), realForm(r, platform), platform));
    if (root !== undefined) {
      problems.push({
        path,
        message: text(
          `신뢰 폴더 ${dir}이(가) 작업 공간 ${root} 안에 있어, 파일 도구로 넣은 파일이 명령으로 실행될 수 있습니다. 사용자가 쓸 수 없는 시스템 폴더(예: /usr/bin, C:\\Windows\\System32)를 쓰거나 작업 공간을 바꾸세요.`,
          `The trusted folder ${dir} lies inside the workspace ${root}, so a file put there by a file tool could run as a command. Use a system folder users cannot write (e.g. /usr/bin, C:\\Windows\\System32), or choose another workspace.`,
        ),
      });
    } else if (writableByUser(dir, platform)) {
      problems.push({
        path,
        message: text(
          `신뢰 폴더 ${dir}에 이 사용자(또는 다른 사용자)가 파일을 쓸 수 있어, 누구든 넣은 프로그램이 허용된 명령으로 실행될 수 있습니다. 관리자만 쓸 수 있는 폴더를 쓰거나 이 폴더의 쓰기 권한을 없애세요.`,
          `The trusted folder ${dir} is writable by this user (or by others), so a program anyone puts there would run as a whitelisted command. Use a folder only administrators can write, or remove the write permission.`,
        ),
      });
    }
  });
  return problems;
}
