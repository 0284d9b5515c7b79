import { describe, expect, it } from 'vitest';
import { inEnglish } from './fixtures';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtinPolicy, loadPolicyFile, parsePolicyText } from '../../../electron/main/policy';

const HOME = '/home/kim';

function problems(text: string, options = {}): { path: string; message: string }[] {
  const r = parsePolicyText(text, HOME, { platform: 'linux', ...options });
  if (r.ok) throw new Error('expected problems, got a policy');
  return inEnglish(r.problems);
}

function policy(text: string) {
  const r = parsePolicyText(text, HOME, { platform: 'linux' });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.value;
}

describe('parsePolicyText: defaults and expansion', () => {
  it('fills every built-in default from a minimal file', () => {
    const p = policy('{"version": 1}');
    expect(p.defaults).toEqual({ read: 'allow', write: 'ask', destructive: 'ask', execute: 'ask', network: 'ask' });
    expect(p.explicitDefaults).toEqual([]);
    expect(p.workspaceRoots).toEqual([]);
    expect(p.approval.timeoutSeconds).toBe(300);
    expect(p.audit.retentionDays).toBe(730);
    expect(p.schemaValidation).toEqual({ builtin: 'enforce', external: 'warn' });
    expect(p.shell).toEqual({
      commands: {},
      trustedDirs: ['/usr/bin', '/bin'],
      env: ['PATH', 'HOME', 'USERPROFILE', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TEMP', 'TMP', 'SystemRoot'],
      defaultTimeoutMs: 120000,
      maxTimeoutMs: 600000,
      maxOutputChars: 30000,
      maxCaptureBytes: 10485760,
    });
    expect(p.rules).toEqual({ allow: [], ask: [], deny: [] });
    expect(p.tests).toEqual([]);
  });

  it('accepts JSONC: comments, trailing commas and a byte-order mark', () => {
    const p = policy('\uFEFF// admin policy\n{\n  /* block */ "version": 1, // line\n  "rules": { "deny": ["system.info",], },\n}\n');
    expect(p.rules.deny).toEqual(['system.info']);
  });

  it('expands ~ in workspaceRoots and trustedDirs, and normalises them', () => {
    const p = policy('{"version":1, "workspaceRoots": ["~/Documents/Baram/", "/srv/x/../data"], "shell": {"trustedDirs": ["~/bin", "/usr/local/bin"]}}');
    expect(p.workspaceRoots).toEqual(['/home/kim/Documents/Baram', '/srv/data']);
    expect(p.shell.trustedDirs).toEqual(['/home/kim/bin', '/usr/local/bin']);
  });

  it('records which defaults the file set, and fills ssh host defaults', () => {
    const p = policy(
      '{"version":1, "defaults": {"write": "deny"}, "ssh": {"hosts": {"build01": {"user": "ops", "hostKey": "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"}}}}',
    );
    expect(p.explicitDefaults).toEqual(['write']);
    expect(p.defaults.write).toBe('deny');
    expect(p.ssh.hosts['build01']).toEqual({ address: 'build01', port: 22, user: 'ops', hostKey: 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8', commands: [] });
  });

  it('always adds the built-in dangerous flags to a whitelisted program', () => {
    const p = policy('{"version":1, "shell": {"commands": {"git": {"denyArgs": ["--no-index"]}, "hostname": {}}}}');
    expect(p.shell.commands['git']?.denyArgs).toEqual(expect.arrayContaining(['-c', '--exec-path', '--ext-diff', '--no-index']));
    expect(p.shell.commands['hostname']?.denyArgs).toEqual([]);
  });

  it('builtinPolicy: the defaults with ~/Documents/Baram expanded', () => {
    const p = builtinPolicy(HOME, 'linux');
    expect(p.workspaceRoots).toEqual(['/home/kim/Documents/Baram']);
    expect(p.defaults.read).toBe('allow');
    expect(p.shell.commands['git']?.denyArgs).toContain('--exec-path');
    expect(builtinPolicy('C:\\Users\\kim', 'win32').workspaceRoots).toEqual(['C:\\Users\\kim\\Documents\\Baram']);
  });
});

describe('parsePolicyText: problems name the JSON path and say what to write', () => {
  it('a wrong value deep inside: $.shell.commands.git.denyArgs[0]', () => {
    expect(problems('{"version":1, "shell": {"commands": {"git": {"denyArgs": [5, ""]}}}}')).toEqual([
      { path: '$.shell.commands.git.denyArgs[0]', message: 'Expected text in double quotes, found a whole number.' },
      { path: '$.shell.commands.git.denyArgs[1]', message: 'Must not be empty; remove the entry or write a value.' },
    ]);
  });

  it('unknown fields suggest the closest name, or list the allowed ones', () => {
    expect(problems('{"version":1, "shell": {"comands": {}}}')).toEqual([
      { path: '$.shell.comands', message: "Unknown field 'comands'. Did you mean 'commands'?" },
    ]);
    const [p] = problems('{"version":1, "zzz": true}');
    expect(p?.path).toBe('$.zzz');
    expect(p?.message).toMatch(/^Unknown field 'zzz'\. Allowed fields here: \$schema, version, workspaceRoots, defaults, rules,/);
  });

  it('wrong enum values list the allowed values', () => {
    expect(problems('{"version":1, "defaults": {"write": "allwo"}}')).toEqual([
      { path: '$.defaults.write', message: "Must be one of: allow, ask, deny (found 'allwo'). Did you mean 'allow'?" },
    ]);
    expect(problems('{"version":1, "schemaValidation": {"external": "strict"}}')[0]?.message).toBe("Must be one of: off, warn, enforce (found 'strict').");
  });

  it('version is required and must be 1', () => {
    expect(problems('{}')).toEqual([{ path: '$', message: "Missing required field 'version'. Write \"version\": 1." }]);
    expect(problems('{"version": 2}')).toEqual([{ path: '$.version', message: 'Must be 1 (found 2).' }]);
    expect(problems('[]')[0]).toEqual({ path: '$', message: 'Expected an object { … }, found a list.' });
  });

  it('ranges, patterns and map keys that need quoting', () => {
    expect(problems('{"version":1, "approval": {"timeoutSeconds": 0}}')).toEqual([{ path: '$.approval.timeoutSeconds', message: 'Must be at least 1 (found 0).' }]);
    expect(problems('{"version":1, "shell": {"maxTimeoutMs": 1.5}}')).toEqual([{ path: '$.shell.maxTimeoutMs', message: 'Expected a whole number, found a number with a fraction.' }]);
    const [key] = problems('{"version":1, "ssh": {"hosts": {"build-01": {"user": "ops", "hostKey": "abc"}}}}');
    expect(key?.path).toBe("$.ssh.hosts['build-01'].hostKey");
    expect(key?.message).toMatch(/^'abc' is not a pinned host key fingerprint such as SHA256:/);
    expect(problems('{"version":1, "ssh": {"hosts": {"b": {"user": "ops"}}}}')[0]).toEqual({
      path: '$.ssh.hosts.b',
      message: expect.stringMatching(/^Missing required field 'hostKey'\. Add it: a pinned host key/),
    });
    expect(problems('{"version":1, "shell": {"env": ["PATH", "MY VAR"]}}')[0]?.path).toBe('$.shell.env[1]');
  });

  it('reports every problem at once', () => {
    expect(problems('{"version":1, "defaults": {"read": "no"}, "audit": {"retentionDays": 30}, "http": {"alow": []}}')).toHaveLength(3);
  });

  it('syntax errors carry line:column and the path they occur under', () => {
    const [p] = problems('{\n  "version": 1,\n  "rules": {\n    "deny": ["a" "b"]\n  }\n}');
    expect(p).toEqual({ path: '$.rules.deny[0]', message: "Line 4, column 18: expected ',' between two entries." });
    const [esc] = problems('{"version": 1, "workspaceRoots": ["C:\\Users\\kim"]}');
    expect(esc?.message).toMatch(/^Line 1, column 35: invalid escape .* forward slashes/);
    expect(problems('')[0]?.message).toMatch(/expected a value/);
  });

  it('refuses duplicate keys and __proto__', () => {
    expect(problems('{"version": 1, "defaults": {"write": "deny", "write": "allow"}}')).toEqual([
      { path: '$.defaults.write', message: "Line 1, column 46: field 'write' appears twice in the same object. Keep one and delete the other." },
    ]);
    expect(problems('{"version": 1, "shell": {"__proto__": {"maxTimeoutMs": 1}}}')[0]).toEqual({
      path: '$.shell.__proto__',
      message: "Line 1, column 26: the field name '__proto__' is not allowed; remove it.",
    });
  });

  it('rule strings are checked at load, with the path of the bad rule', () => {
    expect(problems('{"version":1, "rules": {"allow": ["filesystem.read"], "deny": ["ok.tool", "shell.execute(git", "file system.read", "x()", " a", "a)", "a*b"]}}')).toEqual([
      { path: '$.rules.deny[1]', message: expect.stringMatching(/^Rule 'shell.execute\(git' must end with '\)'/) },
      { path: '$.rules.deny[2]', message: expect.stringMatching(/^'file system.read' is not a tool name/) },
      { path: '$.rules.deny[3]', message: expect.stringMatching(/empty pattern/) },
      { path: '$.rules.deny[4]', message: expect.stringMatching(/spaces/) },
      { path: '$.rules.deny[5]', message: expect.stringMatching(/'\)' without '\('/) },
      { path: '$.rules.deny[6]', message: expect.stringMatching(/^'a\*b' is not a tool name/) },
    ]);
    expect(problems('{"version":1, "rules": {"ask": ["filesystem.read(a\\u0000)"]}}')[0]?.path).toBe('$.rules.ask[0]');
  });

  it('with the registry names, a misspelt tool in a rule or test is a problem', () => {
    const knownTools = ['filesystem.read', 'filesystem.write', 'shell.execute'];
    expect(problems('{"version":1, "rules": {"deny": ["filesytem.read", "filesystem.*", "net.*"]}, "tests": [{"tool": "shel.execute", "expect": "ask"}]}', { knownTools })).toEqual([
      { path: '$.rules.deny[0]', message: "No tool is named 'filesytem.read'. Did you mean 'filesystem.read'?" },
      { path: '$.rules.deny[2]', message: expect.stringMatching(/^No tool matches 'net\.\*'/) },
      { path: '$.tests[0].tool', message: expect.stringMatching(/^No tool is named 'shel.execute'/) },
    ]);
  });

  it('folders must be absolute, command names bare, URL prefixes http(s), timeouts consistent', () => {
    expect(problems('{"version":1, "workspaceRoots": ["docs", "~bob/x"], "shell": {"commands": {"/usr/bin/git": {}, "git status": {}}, "maxTimeoutMs": 60000}, "http": {"allow": ["intranet/wiki", "ftp://x/", "http://u:p@x/", "http://x/?q"]}}')).toEqual([
      { path: '$.workspaceRoots[0]', message: expect.stringMatching(/^'docs' is not an absolute folder/) },
      { path: '$.workspaceRoots[1]', message: expect.stringMatching(/only your own home/) },
      { path: "$.shell.commands['/usr/bin/git']", message: expect.stringMatching(/bare name/) },
      { path: "$.shell.commands['git status']", message: expect.stringMatching(/contains a space/) },
      { path: '$.shell.maxTimeoutMs', message: expect.stringMatching(/defaultTimeoutMs \(120000\) is larger than shell.maxTimeoutMs \(60000\)/) },
      { path: '$.http.allow[0]', message: expect.stringMatching(/is not a URL/) },
      { path: '$.http.allow[1]', message: expect.stringMatching(/http:\/\/ or https:\/\//) },
      { path: '$.http.allow[2]', message: expect.stringMatching(/credentials/) },
      { path: '$.http.allow[3]', message: expect.stringMatching(/query or fragment/) },
    ]);
  });

  it('Windows folders: drive letters, ~\\ and no drive-relative forms', () => {
    const r = parsePolicyText('{"version":1, "workspaceRoots": ["C:\\\\Baram\\\\", "~\\\\Documents\\\\Baram", "D:data", "\\\\x"]}', 'C:\\Users\\kim', { platform: 'win32' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.path)).toEqual(['$.workspaceRoots[2]', '$.workspaceRoots[3]']);
    const ok = parsePolicyText('{"version":1, "workspaceRoots": ["C:\\\\Baram\\\\", "~\\\\Documents\\\\Baram"]}', 'C:\\Users\\kim', { platform: 'win32' });
    expect(ok.ok && ok.value.workspaceRoots).toEqual(['C:\\Baram', 'C:\\Users\\kim\\Documents\\Baram']);
  });
});

describe('loadPolicyFile', () => {
  it('reads a file, and reports a missing one as a problem', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'baram-load-'));
    try {
      const file = path.join(dir, 'policy.json');
      await writeFile(file, '{ "version": 1, // ok\n "rules": {"deny": ["system.info"]} }');
      const r = await loadPolicyFile(file, HOME);
      expect(r.ok && r.value.rules.deny).toEqual(['system.info']);
      const missing = await loadPolicyFile(path.join(dir, 'nope.json'), HOME);
      expect(missing.ok ? [] : inEnglish(missing.problems)).toEqual([{ path: '$', message: expect.stringMatching(/does not exist/) }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
