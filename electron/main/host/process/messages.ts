import { assertNever } from '../../../common/assert-never';
import { text, type Text } from '../../../common/i18n';
import type { ProgramRefusal, ProgramRefusalCode } from '../../../common/process-capability';

/**
 * Refusal and start-failure texts of the process runner. Korean first; each says what to do
 * instead (SPEC G-SIGNPOST): a small model repairs its next call from this text alone.
 */

export interface RefusalFacts {
  /** The name the caller should have written ('git' for './git'). */
  readonly suggestion?: string;
  /** Arguments that were glued to the name ('git status' → ['status']). */
  readonly args?: readonly string[];
  /** The file that was found (a batch file, a link, a file without execute permission). */
  readonly file?: string;
  readonly realPath?: string;
  readonly trustedDirs?: readonly string[];
  /** Whitelisted names, for NOT_WHITELISTED. */
  readonly allowed?: readonly string[];
  readonly limit?: number;
}

export function refusal(code: ProgramRefusalCode, command: string, facts: RefusalFacts): ProgramRefusal {
  return { kind: 'refused', code, command, message: refusalText(code, command, facts) };
}

function refusalText(code: ProgramRefusalCode, command: string, facts: RefusalFacts): Text {
  const name = JSON.stringify(command);
  const dirs = (facts.trustedDirs ?? []).join(', ');
  switch (code) {
    case 'EMPTY':
      return text(
        '실행할 프로그램 이름이 비어 있습니다. 허용된 프로그램 이름(예: git)을 command에, 인수는 args에 쓰세요.',
        'The program name is empty. Put an allowed program name (e.g. git) in command and its arguments in args.',
      );
    case 'INVALID_CHARACTERS':
      return text(
        `프로그램 이름 ${name}에 제어 문자(NUL 등)가 있습니다. 이름만 평범한 글자로 쓰세요 (예: git).`,
        `The program name ${name} contains a control character (such as NUL). Write the plain name only (e.g. git).`,
      );
    case 'PATH_SEPARATOR':
      return text(
        `경로는 쓸 수 없습니다: ${name} 대신 '${facts.suggestion ?? ''}'처럼 이름만 쓰세요. 프로그램은 관리자가 정한 신뢰 폴더에서만 찾습니다.`,
        `Paths are not accepted: use the bare name '${facts.suggestion ?? ''}' instead of ${name}. Programs are looked up only in the administrator's trusted folders.`,
      );
    case 'ENVIRONMENT_ASSIGNMENT':
      return text(
        `${name}: 명령에서 환경 변수를 지정할 수 없습니다. 변수는 관리자 정책(shell.env)에 있는 것만 전달됩니다. 프로그램 이름만 command에 쓰세요.`,
        `${name}: environment variables cannot be set in a command; only those in the administrator's policy (shell.env) are passed. Put just the program name in command.`,
      );
    case 'ARGUMENTS_IN_NAME': {
      const args = JSON.stringify(facts.args ?? []);
      return text(
        `프로그램 이름과 인수를 나누세요: command에 '${facts.suggestion ?? ''}', args에 ${args}.`,
        `Split the program from its arguments: command '${facts.suggestion ?? ''}', args ${args}.`,
      );
    }
    case 'SHELL_SYNTAX':
      return text(
        `${name}: 셸이 없으므로 파이프(|), 리디렉션(>), 와일드카드(*), 따옴표, $() 같은 셸 문법은 쓸 수 없습니다. 프로그램 하나의 이름을 command에, 인수를 args에 따로 쓰세요.`,
        `${name}: there is no shell, so pipes (|), redirects (>), wildcards (*), quotes and $() cannot be used. Put one program name in command and its arguments in args.`,
      );
    case 'INVALID_NAME':
      return text(
        `${name}은(는) 프로그램 이름이 아닙니다. 허용된 프로그램 이름(예: git)을 쓰세요.`,
        `${name} is not a program name. Use an allowed program name (e.g. git).`,
      );
    case 'NOT_WHITELISTED': {
      const allowed = (facts.allowed ?? []).join(', ') || '(없음)';
      const allowedEn = (facts.allowed ?? []).join(', ') || '(none)';
      const hint = facts.suggestion ? ` '${facts.suggestion}'을(를) 쓰려던 것이면 그 이름 그대로 쓰세요.` : '';
      const hintEn = facts.suggestion ? ` If you meant '${facts.suggestion}', write exactly that.` : '';
      return text(
        `${name}은(는) 허용된 명령이 아닙니다. 허용된 명령: ${allowed}.${hint} 파일과 폴더 작업은 셸 대신 전용 도구를 쓰세요.`,
        `${name} is not an allowed command. Allowed: ${allowedEn}.${hintEn} For files and folders use the dedicated tools instead of the shell.`,
      );
    }
    case 'NOT_FOUND':
      return text(
        `${name} 프로그램이 신뢰 폴더(${dirs})에 없습니다. 이 PC에 설치되어 있지 않을 수 있으니 다른 도구를 쓰거나, 사용자에게 관리자에게 설치를 요청하라고 하세요.`,
        `${name} is not in the trusted folders (${dirs}). It may not be installed on this PC: use another tool, or ask the user to have the administrator install it.`,
      );
    case 'BATCH_FILE':
      return text(
        `${name}은(는) 배치 파일(${facts.file ?? command})이라 실행하지 않습니다: cmd.exe가 인수를 다시 해석해 명령 주입이 생길 수 있습니다. .exe 프로그램을 쓰거나 사용자에게 관리자에게 문의하라고 하세요.`,
        `${name} is a batch file (${facts.file ?? command}) and is not run: cmd.exe re-parses the arguments, which allows command injection. Use an .exe program, or ask the user to contact the administrator.`,
      );
    case 'NOT_A_PROGRAM':
      return text(
        `${name}은(는) 직접 실행할 수 있는 프로그램(.exe, .com)이 아닙니다. 확장자 없이 허용된 프로그램 이름(예: git)을 쓰세요.`,
        `${name} is not a program that can be started directly (.exe, .com). Write an allowed program name without an extension (e.g. git).`,
      );
    case 'NOT_EXECUTABLE':
      return text(
        `신뢰 폴더의 ${facts.file ?? name}은(는) 실행 가능한 일반 파일이 아니라서 실행하지 않습니다. 다른 도구를 쓰거나 사용자에게 관리자에게 알리라고 하세요.`,
        `${facts.file ?? name} in a trusted folder is not an executable regular file, so it is not run. Use another tool, or ask the user to tell the administrator.`,
      );
    case 'OUTSIDE_TRUSTED_DIRS':
      return text(
        `${facts.file ?? name}은(는) 신뢰 폴더 밖의 ${facts.realPath ?? '?'}을(를) 가리키므로 실행하지 않습니다. 관리자가 그 폴더를 shell.trustedDirs에 넣어야 실행할 수 있습니다; 그때까지 다른 도구를 쓰세요.`,
        `${facts.file ?? name} points outside the trusted folders, to ${facts.realPath ?? '?'}, so it is not run. The administrator must add that folder to shell.trustedDirs; until then use another tool.`,
      );
    case 'UNSAFE_PERMISSIONS':
      return text(
        `${facts.realPath ?? name}(또는 그 폴더)은 모든 사용자가 고칠 수 있어 실행하지 않습니다. 사용자에게 관리자에게 권한을 고쳐 달라고 하라고 하세요.`,
        `${facts.realPath ?? name} (or its folder) can be modified by every user, so it is not run. Ask the user to have the administrator fix its permissions.`,
      );
    case 'CHANGED':
      return text(
        `${name} 프로그램이 승인된 뒤 바뀌었습니다 (경로 또는 SHA-256이 다름). 실행하지 않았습니다. 같은 명령을 다시 요청해 새로 승인을 받으세요.`,
        `The program ${name} changed after it was approved (different path or SHA-256) and was not run. Request the command again to get a fresh approval.`,
      );
    case 'INVALID_ARGUMENT':
      return text(
        '인수에 NUL 문자가 있어 전달할 수 없습니다. 그 문자를 빼고 다시 호출하세요.',
        'An argument contains a NUL character, which cannot be passed to a program. Remove it and call again.',
      );
    case 'TOO_MANY_TASKS':
      return text(
        `백그라운드 작업이 이미 ${facts.limit ?? '?'}개 실행 중입니다. shell.output으로 끝난 작업을 확인하거나 필요 없는 작업을 멈춘 뒤 다시 시작하세요.`,
        `${facts.limit ?? '?'} background tasks are already running. Check finished ones with shell.output or stop ones you no longer need, then start again.`,
      );
    // Built with their own text by the grammar checks (grammar/messages.ts); this is the fallback.
    case 'ARGUMENT_NOT_ALLOWED':
    case 'PATH_NOT_ALLOWED':
    case 'REPOSITORY_NOT_ALLOWED':
      return text(
        `${name}에 준 인수를 받을 수 없습니다. 허용된 옵션만 쓰고, 경로는 작업 공간 안으로 주세요.`,
        `${name} does not accept these arguments. Use only allowed options and paths inside the workspace.`,
      );
    default:
      return assertNever(code);
  }
}

/** Why a resolved program did not start. The tool prefixes "Command failed: " (SPEC S-SHELL). */
export function startFailureText(command: string, code: string, cwd: string): Text {
  if (code === 'CWD_NOT_FOUND') {
    return text(
      `작업 폴더 ${cwd}이(가) 없거나 폴더가 아니라서 '${command}'을(를) 시작하지 못했습니다. 있는 폴더를 cwd로 쓰세요 (filesystem.list로 확인).`,
      `'${command}' could not start: the working folder ${cwd} does not exist or is not a folder. Use an existing folder as cwd (check with filesystem.list).`,
    );
  }
  return text(
    `'${command}'을(를) 시작하지 못했습니다 (${code}). 같은 호출을 반복하지 말고 다른 도구를 쓰거나 사용자에게 알리세요.`,
    `'${command}' could not be started (${code}). Do not repeat the same call; use another tool or tell the user.`,
  );
}
