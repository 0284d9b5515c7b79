import { text, type Text } from '../../../common/i18n';

/**
 * What the model (and the approval UI) is told when an SSH call is refused or fails. Each message
 * says what to do instead (SPEC G-SIGNPOST); Korean first. Nothing here quotes an OS or library
 * error text: those can carry local paths and user names the model has no business seeing.
 */

const LIST_LIMIT = 20;

function list(items: readonly string[]): string {
  const shown = items.slice(0, LIST_LIMIT).map((i) => `'${i}'`);
  return items.length > LIST_LIMIT ? `${shown.join(', ')}, … (+${items.length - LIST_LIMIT})` : shown.join(', ');
}

export function mebibytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

export const sshText = {
  unknownHost(host: string, known: readonly string[]): Text {
    if (known.length === 0) {
      return text(
        `SSH 호스트 '${host}'는 정책에 없고, 정책에 등록된 SSH 호스트가 하나도 없습니다. 원격 서버 작업이 필요하면 관리자에게 정책의 ssh.hosts에 서버를 등록해 달라고 요청하세요.`,
        `SSH host '${host}' is not in the policy, and the policy names no SSH hosts at all. If you need a remote server, ask the administrator to add it under ssh.hosts in the policy.`,
      );
    }
    return text(
      `SSH 호스트 '${host}'는 정책에 없습니다. 주소가 아니라 정책의 호스트 이름을 쓰세요. 사용할 수 있는 호스트: ${list(known)}.`,
      `SSH host '${host}' is not in the policy. Use a host name from the policy, not an address. Available hosts: ${list(known)}.`,
    );
  },

  hostKeyInvalid(host: string): Text {
    return text(
      `정책에 있는 호스트 '${host}'의 hostKey가 'SHA256:…' 형식(ssh-keygen -lf 출력)이 아니어서 연결하지 않았습니다. 관리자에게 정책을 고쳐 달라고 요청하세요.`,
      `The policy's hostKey for host '${host}' is not in the 'SHA256:…' form printed by ssh-keygen -lf, so no connection was made. Ask the administrator to fix the policy.`,
    );
  },

  hostKeyMismatch(host: string, endpoint: string, pinned: string, presented: string, keyType: string): Text {
    return text(
      `호스트 '${host}'(${endpoint})의 호스트 키가 정책에 고정된 키와 다릅니다. 정책의 키: ${pinned}, 서버가 보낸 키: ${presented} (${keyType}). ` +
        `로그인 정보를 보내기 전에 연결을 끊었고 아무것도 실행하지 않았습니다. 서버가 교체되었거나 누군가 연결을 가로채고 있을 수 있으니 다시 시도하지 말고 관리자에게 확인을 요청하세요.`,
      `The host key of '${host}' (${endpoint}) differs from the key pinned in the policy. Pinned: ${pinned}; the server presented: ${presented} (${keyType}). ` +
        `The connection was closed before any credential was sent and nothing ran. The server may have been replaced or the connection intercepted: do not retry; ask the administrator to check.`,
    );
  },

  noIdentity(host: string): Text {
    return text(
      `호스트 '${host}'에 로그인할 SSH 개인 키가 설정되어 있지 않습니다. 관리자에게 정책의 ssh.hosts.${host}.identityFile 설정을 요청하세요.`,
      `No SSH private key is configured for host '${host}'. Ask the administrator to set ssh.hosts.${host}.identityFile in the policy.`,
    );
  },

  identityUnusable(host: string): Text {
    return text(
      `호스트 '${host}'용 SSH 개인 키를 읽거나 쓸 수 없습니다(파일 없음, 권한, 암호로 보호된 키 등). 관리자에게 키 파일을 확인해 달라고 요청하세요.`,
      `The SSH private key for host '${host}' cannot be read or used (missing file, permissions, passphrase-protected key, …). Ask the administrator to check the key file.`,
    );
  },

  invalidCommand(): Text {
    return text(
      `명령이 비어 있거나, 너무 길거나(최대 4096자), 탭 같은 제어 문자가 들어 있습니다. 명령 한 줄을 공백으로 구분해 보내세요.`,
      `The command is empty, too long (at most 4096 characters) or contains control characters such as tabs. Send one command line, words separated by spaces.`,
    );
  },

  shellMetacharacter(): Text {
    return text(
      `명령에 셸 특수문자(; | & \` $ > < ( ) 또는 줄바꿈)가 있습니다. 원격 서버의 셸이 이를 해석하므로 실행하지 않았습니다. 허용된 명령 하나만 보내고, 여러 명령은 ssh.execute를 따로 호출하세요.`,
      `The command contains shell metacharacters (; | & \` $ > < ( ) or a line break). The remote shell would interpret them, so nothing ran. Send one allowed command; call ssh.execute once per command.`,
    );
  },

  commandNotAllowed(command: string, host: string, allowed: readonly string[]): Text {
    if (allowed.length === 0) {
      return text(
        `호스트 '${host}'에는 허용된 명령이 없어 '${command}'를 실행하지 않았습니다. 필요하면 관리자에게 정책의 ssh.hosts.${host}.commands에 추가해 달라고 요청하세요.`,
        `Host '${host}' allows no commands, so '${command}' did not run. If it is needed, ask the administrator to add it to ssh.hosts.${host}.commands in the policy.`,
      );
    }
    return text(
      `명령 '${command}'는 호스트 '${host}'에서 허용되지 않습니다. 허용된 명령: ${list(allowed)} (':*'로 끝나는 항목은 뒤에 인자를 붙일 수 있음). 이 컴퓨터의 정보는 system.info를 쓰세요.`,
      `Command '${command}' is not allowed on host '${host}'. Allowed: ${list(allowed)} (entries ending in ':*' accept further arguments). For this computer's own facts use system.info.`,
    );
  },

  unsafeArgument(command: string, entry: string): Text {
    return text(
      `명령 '${command}'는 허용 항목 '${entry}'에 해당하지만, 덧붙인 인자에 따옴표, 역슬래시, 와일드카드(* ? [ ]), ~, { }, #, !, ^ 가 있습니다. 원격 셸이 이를 해석하므로 실행하지 않았습니다. 파일 이름을 그대로(와일드카드 없이) 쓰세요.`,
      `Command '${command}' matches the allowed entry '${entry}', but the added arguments contain quotes, backslashes, wildcards (* ? [ ]), ~, { }, #, ! or ^. The remote shell would interpret them, so nothing ran. Write file names literally, without wildcards.`,
    );
  },

  invalidLocalPath(): Text {
    return text(
      `저장할 경로가 올바르지 않습니다(절대 경로여야 하고 '..'나 NUL 문자를 쓸 수 없음). 작업 폴더 안의 파일 경로를 쓰세요.`,
      `The local path is not acceptable (it must be absolute, without '..' segments or NUL characters). Use a file path inside the workspace.`,
    );
  },

  invalidRemotePath(): Text {
    return text(
      `원격 파일 경로가 비어 있거나 NUL 문자를 포함합니다. 서버의 파일 경로 하나를 쓰세요.`,
      `The remote path is empty or contains a NUL character. Give one file path on the server.`,
    );
  },

  localExists(localPath: string): Text {
    return text(
      `'${localPath}'에 이미 파일이 있어 덮어쓰지 않았습니다. 다른 파일 이름을 쓰거나, 덮어쓰기를 명시해 다시 요청하세요.`,
      `A file already exists at '${localPath}', so it was not overwritten. Use another file name, or ask again with overwrite set.`,
    );
  },

  localFolderMissing(localPath: string): Text {
    return text(
      `'${localPath}'를 저장할 폴더가 없습니다. filesystem.mkdir로 폴더를 먼저 만드세요.`,
      `The folder for '${localPath}' does not exist. Create it first with filesystem.mkdir.`,
    );
  },

  localIo(localPath: string): Text {
    return text(
      `'${localPath}'에 파일을 쓰지 못했습니다(디스크 공간이나 권한 문제일 수 있음). 받은 내용은 남기지 않았습니다. 다른 폴더에 저장해 보세요.`,
      `Writing '${localPath}' failed (disk space or permissions, perhaps). Nothing partial was left behind. Try another folder.`,
    );
  },

  notAFile(remotePath: string): Text {
    return text(
      `원격 경로 '${remotePath}'는 일반 파일이 아닙니다(폴더, 장치 등). 파일 하나의 경로를 쓰세요. 폴더 내용은 허용된 경우 ssh.execute로 확인하세요.`,
      `Remote path '${remotePath}' is not a regular file (a folder, device, …). Give the path of one file; to see a folder's content use ssh.execute if it is allowed.`,
    );
  },

  tooLarge(remotePath: string, size: number | null, cap: number): Text {
    const sizeKo = size === null ? '제한보다 큽니다' : `${mebibytes(size)}로 제한보다 큽니다`;
    const sizeEn = size === null ? 'grew beyond the limit while it was being read' : `is ${mebibytes(size)}, above the limit`;
    return text(
      `원격 파일 '${remotePath}'가 ${sizeKo}(최대 ${mebibytes(cap)}). 아무것도 저장하지 않았습니다. 더 작은 파일을 받거나, 서버에서 나누어 달라고 관리자에게 요청하세요.`,
      `Remote file '${remotePath}' ${sizeEn} (at most ${mebibytes(cap)}). Nothing was saved. Download a smaller file, or ask the administrator to split it on the server.`,
    );
  },

  unreachable(host: string, endpoint: string): Text {
    return text(
      `호스트 '${host}'(${endpoint})에 연결하지 못했습니다. 서버가 켜져 있는지, 네트워크와 정책의 주소가 맞는지 관리자에게 확인을 요청하세요.`,
      `Could not connect to host '${host}' (${endpoint}). Ask the administrator whether the server is up and the network and the policy's address are right.`,
    );
  },

  connectTimeout(host: string, endpoint: string, ms: number): Text {
    return text(
      `호스트 '${host}'(${endpoint})가 ${ms} ms 안에 SSH 연결을 마치지 않았습니다. 잠시 후 다시 시도하거나 관리자에게 서버 상태를 확인해 달라고 요청하세요.`,
      `Host '${host}' (${endpoint}) did not complete the SSH connection within ${ms} ms. Try again later, or ask the administrator to check the server.`,
    );
  },

  handshakeFailed(host: string): Text {
    return text(
      `호스트 '${host}'와 SSH 암호화 방식을 맞추지 못했습니다. 관리자에게 서버 설정을 확인해 달라고 요청하세요.`,
      `Could not agree on SSH algorithms with host '${host}'. Ask the administrator to check the server configuration.`,
    );
  },

  authenticationFailed(host: string, user: string): Text {
    return text(
      `호스트 '${host}'가 사용자 '${user}'의 SSH 키를 받아들이지 않았습니다. 다시 시도하지 말고 관리자에게 키 등록을 확인해 달라고 요청하세요.`,
      `Host '${host}' did not accept the SSH key of user '${user}'. Do not retry; ask the administrator to check the key's registration.`,
    );
  },

  channelRefused(host: string, what: 'exec' | 'sftp'): Text {
    return what === 'exec'
      ? text(
          `호스트 '${host}'가 명령 실행 요청을 거부했습니다. 관리자에게 서버 설정을 확인해 달라고 요청하세요.`,
          `Host '${host}' refused to run the command. Ask the administrator to check the server configuration.`,
        )
      : text(
          `호스트 '${host}'가 SFTP(파일 전송)를 허용하지 않습니다. 관리자에게 서버의 SFTP 설정을 확인해 달라고 요청하세요.`,
          `Host '${host}' does not offer SFTP (file transfer). Ask the administrator to check the server's SFTP setup.`,
        );
  },

  connectionLost(host: string): Text {
    return text(
      `호스트 '${host}'와의 연결이 작업 중에 끊어졌습니다. 원격에서 어디까지 실행되었는지 알 수 없으니, 상태를 확인한 뒤 필요하면 다시 시도하세요.`,
      `The connection to host '${host}' broke during the work. It is unknown how far the remote side got; check the state before retrying.`,
    );
  },

  remoteNotFound(remotePath: string): Text {
    return text(
      `원격 파일 '${remotePath}'가 없습니다. 경로를 확인하세요(상대 경로는 로그인 사용자의 홈 폴더 기준).`,
      `Remote file '${remotePath}' does not exist. Check the path (relative paths start at the login's home folder).`,
    );
  },

  remoteDenied(remotePath: string): Text {
    return text(
      `서버가 원격 파일 '${remotePath}' 읽기를 거부했습니다(권한 없음). 관리자에게 권한을 요청하거나 다른 파일을 쓰세요.`,
      `The server refused to read remote file '${remotePath}' (permission denied). Ask the administrator for access or use another file.`,
    );
  },
};
