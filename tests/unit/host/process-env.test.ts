import { describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../../electron/main/host/process/child-env';
import { runLimits } from '../../../electron/main/host/process/run-request';
import { defaultShell } from '../../../electron/main/policy/defaults';

/** The child environment from the whitelist only (SPEC S-SHELL), and the clamped limits. */

const SOURCE = {
  PATH: '.:/home/me/ws/bin:/usr/bin',
  HOME: '/home/me',
  LANG: 'ko_KR.UTF-8',
  LC_ALL: 'ko_KR.UTF-8',
  LC_TIME: 'C',
  LCX: 'not an LC_ variable',
  GITHUB_TOKEN: 'ghp_secret',
  HTTPS_PROXY: 'http://proxy:8080',
  EMPTY: undefined,
};

describe('buildChildEnv', () => {
  it('exact names and PREFIX* entries; nothing else', () => {
    const env = buildChildEnv({ whitelist: ['HOME', 'LANG', 'LC_*'], source: SOURCE, platform: 'linux', trustedDirs: ['/usr/bin'] });
    expect(env).toEqual({ HOME: '/home/me', LANG: 'ko_KR.UTF-8', LC_ALL: 'ko_KR.UTF-8', LC_TIME: 'C' });
  });

  it('PATH, when whitelisted, is the trusted folders, never the inherited one', () => {
    const env = buildChildEnv({ whitelist: ['PATH'], source: SOURCE, platform: 'linux', trustedDirs: ['/usr/bin', '/bin', 'relative'] });
    expect(env).toEqual({ PATH: '/usr/bin:/bin' });
    expect(buildChildEnv({ whitelist: ['PATH'], source: {}, platform: 'linux', trustedDirs: ['/usr/bin'] })).toEqual({ PATH: '/usr/bin' });
    expect(buildChildEnv({ whitelist: [], source: SOURCE, platform: 'linux', trustedDirs: ['/usr/bin'] })).toEqual({});
  });

  it("POSIX names are case-sensitive: 'home' does not pass HOME", () => {
    expect(buildChildEnv({ whitelist: ['home', 'lang'], source: SOURCE, platform: 'linux', trustedDirs: [] })).toEqual({});
  });

  it("malformed entries match nothing: '*', '', 'A=B', 'L*C*'", () => {
    expect(buildChildEnv({ whitelist: ['*', '', 'HOME=x', 'L*C*'], source: SOURCE, platform: 'linux', trustedDirs: [] })).toEqual({});
  });

  it('Windows: names match case-insensitively and keep their own spelling; Path becomes the trusted folders', () => {
    const env = buildChildEnv({
      whitelist: ['PATH', 'SystemRoot', 'USERPROFILE', 'TEMP'],
      source: { Path: 'C:\\Users\\me\\ws;C:\\Windows', SYSTEMROOT: 'C:\\Windows', UserProfile: 'C:\\Users\\me', temp: 'C:\\Temp', GH_TOKEN: 'x' },
      platform: 'win32',
      trustedDirs: ['C:\\Windows\\System32', 'C:\\Program Files\\Git\\cmd'],
    });
    expect(env).toEqual({
      Path: 'C:\\Windows\\System32;C:\\Program Files\\Git\\cmd',
      SYSTEMROOT: 'C:\\Windows',
      UserProfile: 'C:\\Users\\me',
      temp: 'C:\\Temp',
    });
  });
});

describe('runLimits', () => {
  const shell = defaultShell('linux'); // 120 s default, 600 s max, 10 MiB capture

  it('timeout: default when absent, clamped to [1 s, policy max]', () => {
    expect(runLimits({}, shell).timeoutMs).toBe(120_000);
    expect(runLimits({ timeoutMs: 5 }, shell).timeoutMs).toBe(1000);
    expect(runLimits({ timeoutMs: -1 }, shell).timeoutMs).toBe(1000);
    expect(runLimits({ timeoutMs: 3_600_000 }, shell).timeoutMs).toBe(600_000);
    expect(runLimits({ timeoutMs: Number.NaN }, shell).timeoutMs).toBe(120_000);
    expect(runLimits({ timeoutMs: Number.POSITIVE_INFINITY }, shell).timeoutMs).toBe(120_000);
    expect(runLimits({ timeoutMs: 2500.4 }, shell).timeoutMs).toBe(2500);
  });

  it('capture: the policy value at most', () => {
    expect(runLimits({}, shell).maxCaptureBytes).toBe(10 * 1024 * 1024);
    expect(runLimits({ maxCaptureBytes: 1 << 30 }, shell).maxCaptureBytes).toBe(10 * 1024 * 1024);
    expect(runLimits({ maxCaptureBytes: 4096 }, shell).maxCaptureBytes).toBe(4096);
    expect(runLimits({ maxCaptureBytes: -5 }, shell).maxCaptureBytes).toBe(0);
  });
});
