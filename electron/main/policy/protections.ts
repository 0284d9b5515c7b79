import type { Risk } from '../../common/domain';
import { text, type Text } from '../../common/i18n';
import { policyMessages } from './messages';
import { isInside, pathApi } from './paths';
import type { SubjectValue } from './subject-view';
import type { PermissionEnv } from './types';

/**
 * Built-in protections for PATH subjects. They rank below explicit deny rules and above everything
 * that can allow (session grants, ask and allow rules, defaults), so no policy and no approval can
 * switch them off. Every form of every value is checked: the lexical form catches `..` escapes,
 * the real form catches symlinks that lead out.
 */
export interface Protection {
  readonly rule: 'workspaceRoots' | 'protected' | 'execution-equivalent-write';
  readonly reason: Text;
}

/**
 * SPEC G-APPROVE: writes that amount to execution (issue 14 class 5). A file with one of these
 * extensions runs code when a person double-clicks or opens it, or when Windows, Office or a shell
 * picks it up: script hosts (cmd, PowerShell, Windows Script Host, HTML applications), programs and
 * libraries Windows loads by extension, shortcuts and URL files (they name a program), registry and
 * setup files, installers and packages, Java archives, and every macro-enabled Office document,
 * template and add-in (opening one can run VBA; Access databases run macros on open). A denylist of
 * names, unlike program grammars: the set of things Windows runs by extension is closed and listed in
 * the registry's PATHEXT / file associations, not open-ended like a program's option aliases.
 */
export const EXECUTION_EXTENSIONS: readonly string[] = [
  // POSIX and Windows shells, PowerShell (scripts, modules, manifests, configurations, formats)
  '.sh', '.bash', '.zsh', '.ksh', '.csh', '.command', '.bat', '.cmd', '.ps1', '.psm1', '.psd1', '.ps1xml', '.psc1', '.pssc', '.cdxml',
  // Windows Script Host and HTML applications
  '.vbs', '.vbe', '.js', '.jse', '.wsf', '.wsh', '.wsc', '.sct', '.hta',
  // programs and libraries Windows runs or loads by extension, control panel items, screen savers, consoles
  '.exe', '.com', '.scr', '.pif', '.dll', '.cpl', '.ocx', '.sys', '.drv', '.msc',
  // shortcuts and files that name a program or a location to open
  '.lnk', '.url', '.website', '.scf', '.library-ms', '.searchconnector-ms', '.desktop', '.settingcontent-ms',
  // registry, setup information, installers and packages, ClickOnce, gadgets, help that runs script
  '.reg', '.inf', '.msi', '.msp', '.mst', '.msix', '.msixbundle', '.appx', '.appxbundle', '.appinstaller', '.application', '.appref-ms', '.gadget', '.chm', '.hlp', '.xbap',
  // interpreters Windows associates with a double-click when installed
  '.jar', '.jnlp', '.py', '.pyw',
  // Office: every macro-enabled document, template and add-in (Excel, Word, PowerPoint, Access, Visio);
  // legacy templates and add-ins (.xla .xlt .dot .pot .ppa) carry VBA too
  '.xlsm', '.xltm', '.xlsb', '.xlam', '.xla', '.xll', '.xlm', '.xlt',
  '.docm', '.dotm', '.dot', '.wll',
  '.pptm', '.potm', '.ppsm', '.ppam', '.ppa', '.sldm', '.pot',
  '.accdb', '.accde', '.accdr', '.accda', '.mdb', '.mde', '.mda', '.ade', '.adp', '.mam', '.maq', '.mar', '.mat', '.maf', '.mav',
  '.vsdm', '.vstm', '.vssm',
];

/** Names git reads as repository metadata wherever they appear (a `.git` gitfile, a shared `commondir`). */
const GIT_METADATA_NAMES = new Set(['.git', 'commondir']);

/**
 * The names to judge: lowercased on every platform (`RUN.BAT` runs on Windows, `X.SH` is as
 * runnable by `sh` as `x.sh`), NFC, and each name both as written and as Win32 sees it — Win32
 * drops trailing dots and spaces and writes `a.bat::$DATA` to `a.bat` itself. Both spellings are
 * judged everywhere: a Linux folder is often shared with Windows PCs, and on Linux `x:.vbs` ends
 * in `.vbs` although its Win32 reading does not.
 */
function namesForExecutionCheck(p: string): string[][] {
  const segments = p.replace(/\\/g, '/').toLowerCase().normalize('NFC').split('/').slice(1);
  const win32 = segments.map((s) => s.replace(/:.*$/, '').replace(/[. ]+$/, ''));
  return [segments, win32];
}

/**
 * True when writing (creating, moving or copying onto) `p` amounts to running code:
 *  - an execution-equivalent extension (above);
 *  - any `.git` path component and any file named `commondir`: git reads its configuration there
 *    (a `.git` file is a gitfile naming the git directory), and configuration names programs
 *    (core.fsmonitor, core.hooksPath, filters …). Issue 14: a written `.git/commondir` or gitfile
 *    made the auto-allowed `git status` run another repository's fsmonitor. `git~1` is the Win32
 *    short name of `.git`.
 */
export function isExecutionEquivalent(p: string, _platform?: NodeJS.Platform): boolean {
  for (const segments of namesForExecutionCheck(p)) {
    const name = segments[segments.length - 1] ?? '';
    if (EXECUTION_EXTENSIONS.some((ext) => name.endsWith(ext))) return true;
    if (segments.some((s) => GIT_METADATA_NAMES.has(s) || /^git~\d+$/.test(s))) return true;
  }
  return false;
}

// Protected paths ignore case everywhere: the audit directory must not be reachable as `AUDIT` on a
// case-insensitive volume, and refusing a same-named folder on a case-sensitive one costs nothing.
function insideProtected(form: string, protectedPath: string, platform: NodeJS.Platform): boolean {
  return isInside(form.toLowerCase(), protectedPath.toLowerCase(), platform);
}

export function builtinProtection(values: readonly SubjectValue[], risk: Risk, env: PermissionEnv): Protection | null {
  for (const value of values) {
    for (const form of value.forms) {
      if (!env.roots.some((root) => isInside(form, root, env.platform))) {
        const throughLink = form !== value.key && env.roots.some((root) => isInside(value.key, root, env.platform));
        return { rule: 'workspaceRoots', reason: policyMessages.outsideRoots(value.raw, env.roots[0], throughLink) };
      }
    }
  }
  for (const value of values) {
    if (value.forms.some((form) => env.protectedPaths.some((p) => insideProtected(form, p, env.platform)))) {
      return { rule: 'protected', reason: policyMessages.protectedPath(value.raw) };
    }
  }
  // A network tool's PATH values are what it writes (ssh.download's destination): a download is a
  // write like any other. Reads and executes are not judged here (reading a .git folder is fine).
  if (risk === 'write' || risk === 'destructive' || risk === 'network') {
    for (const value of values) {
      if (value.forms.some((form) => isExecutionEquivalent(form, env.platform))) {
        return { rule: 'execution-equivalent-write', reason: policyMessages.executionEquivalent(value.raw) };
      }
    }
  }
  return null;
}

/** A folder copy or move with more entries than this is refused: its destinations could not all be judged. */
export const TRANSFER_TREE_LIMIT = 100_000;

export const TRANSFER_TREE_TOO_LARGE: Text = text(
  `폴더 안의 항목이 ${TRANSFER_TREE_LIMIT.toLocaleString('en')}개를 넘어 하나하나 확인할 수 없으므로 옮기거나 복사하지 않습니다. 더 작은 폴더 단위로 나누어 요청하세요.`,
  `The folder holds more than ${TRANSFER_TREE_LIMIT.toLocaleString('en')} entries, too many to check each one, so it is not moved or copied. Ask for smaller folders one at a time.`,
);

export interface TransferTarget {
  readonly path: string;
  readonly to?: string;
}

/**
 * SPEC G-APPROVE: the destinations a folder move or copy creates, its descendants included — a
 * folder whose tree holds `run.vbs` or a `.git` directory creates them at the destination too
 * (issue 14 classes 1 and 5), and the protections and rules must judge each of them. `list` is
 * the file tools' recursive listing (confined; lists folders and files, `.git` included).
 * Returns null when a tree is larger than TRANSFER_TREE_LIMIT (the caller refuses), and the
 * sources' descendants too, so a deny rule on something inside the folder holds for the move.
 */
export async function transferDescendants(
  targets: readonly TransferTarget[],
  list: (folder: string) => Promise<readonly { readonly path: string; readonly type: string }[] | null>,
  platform: NodeJS.Platform,
): Promise<string[] | null> {
  const api = pathApi(platform);
  const out: string[] = [];
  for (const t of targets) {
    if (t.to === undefined) continue;
    const entries = await list(t.path);
    if (entries === null) continue; // not a folder
    if (entries.length > TRANSFER_TREE_LIMIT) return null;
    for (const e of entries) {
      out.push(e.path, api.join(t.to, api.relative(t.path, e.path)));
    }
  }
  return out;
}
