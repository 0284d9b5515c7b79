import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRemoteCommand, hostKeyFingerprint, identityFromFile, SshIdentityError } from '../../../electron/main/host/ssh';
import { hostKeyType, matchesPin, pinnedDigest } from '../../../electron/main/host/ssh/fingerprint';
import { decodeRemoteOutput, OutputCapture } from '../../../electron/main/host/ssh/output-capture';
import { generateEd25519 } from '../../helpers/ssh-test-server';

/** Public keys and the fingerprints `ssh-keygen -lf` (OpenSSH 9) printed for them. */
const VECTORS = [
  {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ+Jb2nrYqyhw5NkWsrLNBi7t4eWALVwxL64bc6PkFO/',
    fingerprint: 'SHA256:JzJO0wz75FGVGG66aNt+wqomBo3/ZWVQjQtoFUJVoDU',
    type: 'ssh-ed25519',
  },
  {
    line:
      'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDJTHQMBEB0pK355vCDfeE8qoSSsnEza9Vj8p6u1BS87vYqm2tHpEmqRdyK+KiP2hTvvBbth83znnMxiXxfb8Jo3yBBDklt8S/0DkFEyO/yiPJj1JMcosHU4uieYWJqddvksMTQ+Nfd8CinwJKy7URqEuoflkhjK/XxyI00K85u70qtWXUID/U7miPSFKkWCHhMRSPwVyNZGsrhRsg8PosdF8DG5gEUzWEwhHkNjqLR3t9qhhcl5iIQbwJQf9RkQ+hFKhDt1c3xM6tAlP3P+Lw1Czk6EHxP2NndDR3/EOKytJmrdoY6YxIhsyXMPS40tKWW2waBjUqgbtbyBOJ8UuSP',
    fingerprint: 'SHA256:8XA9DoP8dxh3ERcv5YFBSJ0iz83Kh10cWDV2/Nz2ZG0',
    type: 'ssh-rsa',
  },
];

const blobOf = (line: string): Buffer => Buffer.from(line.split(' ')[1]!, 'base64');

describe('host key fingerprints', () => {
  it('match what ssh-keygen -lf prints', () => {
    for (const v of VECTORS) {
      expect(hostKeyFingerprint(blobOf(v.line))).toBe(v.fingerprint);
      expect(hostKeyType(blobOf(v.line))).toBe(v.type);
    }
  });

  it('compare against a pin with or without base64 padding, and nothing else', () => {
    const [ed] = VECTORS;
    const blob = blobOf(ed!.line);
    expect(matchesPin(blob, ed!.fingerprint)).toBe(true);
    expect(matchesPin(blob, `${ed!.fingerprint}=`)).toBe(true);
    expect(matchesPin(blob, VECTORS[1]!.fingerprint)).toBe(false);
    expect(matchesPin(blob, ed!.fingerprint.replace('SHA256:', 'sha256:'))).toBe(false);
    expect(matchesPin(blob, ed!.fingerprint.slice(0, -1))).toBe(false);
    expect(pinnedDigest('SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8')).toBe('nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8');
    expect(pinnedDigest('MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48')).toBeNull();
  });

  it('name an unreadable key type "unknown" rather than echo bytes', () => {
    expect(hostKeyType(Buffer.from([0, 0, 0, 3, 0x61, 0x0a, 0x62]))).toBe('unknown');
    expect(hostKeyType(Buffer.from([0, 0, 1, 0]))).toBe('unknown');
    expect(hostKeyType(Buffer.alloc(0))).toBe('unknown');
  });
});

describe('remote command whitelist', () => {
  const allowed = ['uptime', 'df -h', 'tail -n 100:*', 'ls /var/log/*.log', 'bad:*:*', ' padded'];

  it('accepts exact lines and plain words after a prefix', () => {
    expect(checkRemoteCommand('uptime', allowed)).toEqual({ ok: true, entry: 'uptime' });
    expect(checkRemoteCommand('df -h', allowed)).toEqual({ ok: true, entry: 'df -h' });
    expect(checkRemoteCommand('tail -n 100', allowed)).toEqual({ ok: true, entry: 'tail -n 100:*' });
    expect(checkRemoteCommand('tail -n 100 /var/log/app.log', allowed)).toEqual({ ok: true, entry: 'tail -n 100:*' });
    // The administrator wrote this glob: an exact entry may contain it.
    expect(checkRemoteCommand('ls /var/log/*.log', allowed)).toEqual({ ok: true, entry: 'ls /var/log/*.log' });
  });

  it('refuses what the whitelist does not cover, and entries it cannot read', () => {
    for (const command of ['df -h /', 'tail -n 1000', 'tail -n 100x', 'bad x', 'padded', 'UPTIME']) {
      expect(checkRemoteCommand(command, allowed), command).toEqual({ ok: false, reason: 'command-not-allowed' });
    }
    expect(checkRemoteCommand('uptime', [])).toEqual({ ok: false, reason: 'command-not-allowed' });
  });

  it('refuses shell syntax in what the model appended to a prefix', () => {
    expect(checkRemoteCommand('tail -n 100 /var/log/*.log', allowed)).toEqual({ ok: false, reason: 'unsafe-argument', entry: 'tail -n 100:*' });
    expect(checkRemoteCommand('tail -n 100 ~root/.bashrc', allowed)).toMatchObject({ reason: 'unsafe-argument' });
    expect(checkRemoteCommand('uptime;id', allowed)).toEqual({ ok: false, reason: 'shell-metacharacter' });
    expect(checkRemoteCommand('uptime\tx', allowed)).toEqual({ ok: false, reason: 'invalid-command' });
  });
});

describe('remote output decoding and capture', () => {
  it('keeps UTF-8 when only the cut split the last character', () => {
    const bytes = Buffer.from('가나다', 'utf8').subarray(0, 7); // '가나' + 1 byte of '다'
    expect(decodeRemoteOutput(bytes, true)).toEqual({ text: '가나', encoding: 'utf-8' });
  });

  it('falls back to CP949, extended (UHC) syllables included', () => {
    expect(decodeRemoteOutput(iconv.encode('똠방각하', 'cp949'), false)).toEqual({ text: '똠방각하', encoding: 'cp949' });
  });

  it('drops a CP949 character split by the cut instead of ending in a replacement character', () => {
    const bytes = iconv.encode('똠방A각', 'cp949'); // 2 + 2 + 1 + 2 bytes
    expect(decodeRemoteOutput(bytes.subarray(0, 6), true)).toEqual({ text: '똠방A', encoding: 'cp949' });
    expect(decodeRemoteOutput(bytes.subarray(0, 5), true)).toEqual({ text: '똠방A', encoding: 'cp949' });
  });

  it('keeps the head, counts the rest', () => {
    const capture = new OutputCapture(5);
    capture.push(Buffer.from('abc'));
    capture.push(Buffer.from('defg'));
    capture.push(Buffer.from('hij'));
    expect(capture.result()).toEqual({ text: 'abcde', truncated: true, capturedBytes: 5, totalBytes: 10, encoding: 'utf-8' });
  });
});

describe('identityFromFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'baram-ssh-id-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function keyFile(name: string, content: string | Buffer, mode = 0o600): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, content);
    await chmod(file, mode);
    return file;
  }

  async function problemOf(file: string, platform: NodeJS.Platform = 'linux'): Promise<string> {
    try {
      await identityFromFile(file, platform);
      return 'none';
    } catch (e) {
      expect(e).toBeInstanceOf(SshIdentityError);
      return (e as SshIdentityError).problem;
    }
  }

  it('reads an unencrypted private key that only its owner can read', async () => {
    const pair = generateEd25519();
    const identity = await identityFromFile(await keyFile('ok', pair.private));
    expect(identity.privateKey.toString()).toBe(pair.private);
  });

  it('refuses keys others can read, passphrase-protected keys, non-keys, huge and missing files', async () => {
    const pair = generateEd25519();
    expect(await problemOf(await keyFile('open', pair.private, 0o644))).toBe('unprotected');
    expect(await problemOf(path.join(dir, 'open'), 'win32')).toBe('none'); // Windows has no mode bits to judge
    const locked = generateEd25519({ passphrase: 'secret', cipher: 'aes256-ctr', rounds: 1 });
    expect(await problemOf(await keyFile('locked', locked.private))).toBe('not-a-private-key');
    expect(await problemOf(await keyFile('public', pair.public))).toBe('not-a-private-key');
    expect(await problemOf(await keyFile('huge', Buffer.alloc(70 * 1024, 'a')))).toBe('too-large');
    expect(await problemOf(path.join(dir, 'missing'))).toBe('unreadable');
    expect(await problemOf(dir)).toBe('unreadable');
  });
});
