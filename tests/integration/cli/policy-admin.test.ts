import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli';

/**
 * Issue 15, items 9–13 (the administrator's trial) and issue 16's model section, through the real
 * `baram` command with real policy files in a temp folder.
 */

let base: string;
let ws: string;
let data: string;
let n = 0;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baram-policy-admin-')));
  ws = join(base, '문서');
  data = join(base, 'data');
  await mkdir(ws);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function file(content: string | Uint8Array, name = `p${++n}.json`): Promise<string> {
  const path = join(base, name);
  await writeFile(path, content);
  return path;
}

const KOREAN_POLICY = () => `{ "version": 1, "workspaceRoots": ["${ws}"], "rules": { "deny": ["filesystem.read(**/비밀/**)"] } }\n`;

describe('item 9: a policy that is not UTF-8 is refused with one line saying how to save it', () => {
  it('CP949 (Notepad "ANSI"): no longer OK with its Korean paths turned into U+FFFD', async () => {
    const policy = await file(iconv.encode(KOREAN_POLICY(), 'cp949'));
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/^OK/m);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/is saved as CP949 \(Notepad's 'ANSI'\)\. In Notepad choose 'Save As' and the encoding 'UTF-8' \(or 'UTF-8 with BOM'\)/);
    const ko = await runCli(['policy', 'check', policy]);
    expect(ko.stdout).toMatch(/CP949\(메모장의 'ANSI'\)로 저장되어 있습니다\. 메모장의 '다른 이름으로 저장'에서 인코딩을 'UTF-8'/);
  });

  it('UTF-16, with or without a BOM: one line, not hundreds of "unexpected character"', async () => {
    const text = KOREAN_POLICY();
    for (const bytes of [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), Buffer.from(text, 'utf16le')]) {
      const r = await runCli(['policy', 'check', await file(bytes), '--lang', 'en']);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/unexpected character/);
      expect(r.stdout.trim().split('\n')).toHaveLength(2);
      expect(r.stdout).toMatch(/saved as UTF-16 \(Notepad's 'Unicode'\)\. In Notepad choose 'Save As' and the encoding 'UTF-8'/);
    }
  });

  it('UTF-8 with and without a BOM loads, Korean paths intact', async () => {
    for (const bytes of [Buffer.from(KOREAN_POLICY()), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(KOREAN_POLICY())])]) {
      const r = await runCli(['policy', 'check', await file(bytes), '--lang', 'en']);
      expect(r.stdout).toMatch(/^OK /);
      expect(r.code).toBe(0);
    }
  });

  it('a CP949 settings file stops a session (and policy check --settings) the same way', async () => {
    const settings = await file(iconv.encode(`{ "rules": { "deny": ["filesystem.read(**/비밀/**)"] } }`, 'cp949'), 'settings-cp949.json');
    const call = await runCli(['call', 'filesystem.list', '{}', '--workspace', ws, '--data-dir', data, '--settings', settings, '--lang', 'en']);
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(/The settings file .* is saved as CP949/);
    const check = await runCli(['policy', 'check', await file(KOREAN_POLICY()), '--settings', settings, '--lang', 'en']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/settings-cp949\.json: 1 problem\n {2}\$: The settings file .* is saved as CP949/);
  });
});

describe('item 10: embedded tests go through the precheck too', () => {
  const policyWithTests = (tests: unknown[]) =>
    JSON.stringify({ version: 1, workspaceRoots: [ws], shell: { commands: { hostname: {} }, trustedDirs: ['/usr/bin', '/bin'] }, tests });

  it("expect 'deny' for a command that is not whitelisted passes (it is refused before anyone is asked), and so does 'refuse'", async () => {
    const policy = await file(
      policyWithTests([
        { tool: 'shell.execute', args: { command: 'rm', args: ['-rf', 'x'] }, expect: 'deny' },
        { tool: 'shell.execute', args: { command: 'curl', args: ['http://x'] }, expect: 'refuse' },
      ]),
    );
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.stdout).toMatch(/^OK .*\n.*2 embedded tests passed/);
    expect(r.code).toBe(0);
  });

  it("a refused call expected 'ask' is a warning naming the precheck's reason; 'refuse' for a call that runs, and bad args, are problems", async () => {
    const policy = await file(
      policyWithTests([
        { tool: 'shell.execute', args: { command: 'rm', args: ['x'] }, expect: 'ask' },
        { tool: 'shell.execute', args: { command: 'hostname', args: [] }, expect: 'refuse' },
        { tool: 'filesystem.read', args: { paht: 'a.txt' }, expect: 'allow' },
      ]),
    );
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/: 2 problems\n/);
    expect(r.stdout).toMatch(/: 1 warning\n {2}\$\.tests\[0\]: The rules give shell\.execute .* 'ask', but on this machine the call is now refused before approval by the precheck: .*rm.* If that is intended, write "expect": "refuse"\./);
    expect(r.stdout).toMatch(/\$\.tests\[1\]: Expected 'refuse' for shell\.execute .* decides 'ask' by rule 'defaults\.execute'/);
    expect(r.stdout).toMatch(/\$\.tests\[2\]: The arguments of filesystem\.read .* do not fit the tool's schema.*Unknown parameter 'paht'/);
    const ko = await runCli(['policy', 'check', policy]);
    expect(ko.stdout).toMatch(/\$\.tests\[0\]: .*승인을 묻기 전에 사전 점검에서 거절됩니다/);
    expect(ko.stdout).toMatch(/경고 1개/);
  });

  it('a session does not open when such a test fails (the same judgment at run time)', async () => {
    const policy = await file(policyWithTests([{ tool: 'shell.execute', args: { command: 'rm', args: ['x'] }, expect: 'allow' }]));
    const r = await runCli(['call', 'filesystem.list', '{}', '--policy', policy, '--workspace', ws, '--data-dir', data, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/The policy's own tests fail[\s\S]*\$\.tests\[0\]: Expected 'allow' .* decides 'ask' .*, and the call is refused before approval by the precheck/);
  });
});

describe('item 11: policy check warns about what would hurt at run time', () => {
  it('a missing program, a missing SSH key and rules that never match are warnings', async () => {
    const policy = await file(
      JSON.stringify({
        version: 1,
        workspaceRoots: [ws],
        shell: { commands: { hostname: {}, 'no-such-program-x': {} }, trustedDirs: ['/usr/bin', '/bin'] },
        ssh: { hosts: { build01: { user: 'ops', hostKey: 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8', identityFile: join(base, 'no-key') } } },
        rules: { allow: ['shell.execute(hostname; rm -rf x)', 'filesytem.read'], deny: ['nosuch.tool'] },
      }),
    );
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.stdout).toMatch(/^OK /);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 5 warnings\n/);
    expect(r.stdout).toMatch(/\$\.shell\.commands\['no-such-program-x'\]: The program 'no-such-program-x' is in none of the trusted folders/);
    expect(r.stdout).not.toMatch(/\$\.shell\.commands\.hostname:/);
    expect(r.stdout).toMatch(/\$\.ssh\.hosts\.build01\.identityFile: The SSH key file .*no-key does not exist/);
    expect(r.stdout).toMatch(/\$\.rules\.allow\[0\]: .*contains a shell metacharacter.*allows nothing/);
    expect(r.stdout).toMatch(/\$\.rules\.allow\[1\]: No tool is named 'filesytem\.read'\. Did you mean 'filesystem\.read'\? This rule matches no call\./);
    expect(r.stdout).toMatch(/\$\.rules\.deny\[0\]: No tool matches 'nosuch\.tool'/);
  });

  it('a whole-drive root is a warning (and, holding the trusted folders, a problem)', async () => {
    const policy = await file(JSON.stringify({ version: 1, workspaceRoots: ['/'] }));
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/: 2 problems\n {2}\$\.shell\.trustedDirs\[0\]: The trusted folder \/usr\/bin lies inside the workspace \//);
    expect(r.stdout).toMatch(/: 1 warning\n {2}\$\.workspaceRoots\[0\]: The workspace \/ is a whole drive, so file tools reach every file on it/);
  });

  it('a trusted folder inside a workspace root refuses to load, in policy check and at run time', async () => {
    const bin = join(ws, 'bin');
    await mkdir(bin, { recursive: true });
    const policy = await file(JSON.stringify({ version: 1, workspaceRoots: [ws], shell: { commands: { ping: {} }, trustedDirs: [bin, '/usr/bin'] } }));
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\$\.shell\.trustedDirs\[0\]: The trusted folder .*bin lies inside the workspace .*문서, so a file put there by a file tool could run as a command/);
    const call = await runCli(['call', 'filesystem.list', '{}', '--policy', policy, '--workspace', ws, '--data-dir', data, '--lang', 'en']);
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(/trusted folders are not safe[\s\S]*lies inside the workspace/);
  });

  it('at run time the workspace in force counts: a --workspace that holds a trusted folder does not open', async () => {
    const tools = join(base, 'tools-dir');
    await mkdir(join(tools, 'bin'), { recursive: true });
    const policy = await file(JSON.stringify({ version: 1, shell: { trustedDirs: [join(tools, 'bin'), '/usr/bin'] } }));
    const call = await runCli(['call', 'filesystem.list', '{}', '--policy', policy, '--workspace', tools, '--data-dir', data, '--lang', 'en']);
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(/\$\.shell\.trustedDirs\[0\]: The trusted folder .*lies inside the workspace/);
  });

  it('a trusted folder others can write refuses to load', async () => {
    const open = join(base, 'open-bin');
    await mkdir(open);
    await chmod(open, 0o777);
    const policy = await file(JSON.stringify({ version: 1, workspaceRoots: [ws], shell: { trustedDirs: [open] } }));
    const r = await runCli(['policy', 'check', policy, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\$\.shell\.trustedDirs\[0\]: The trusted folder .*open-bin is writable by this user \(or by others\)/);
  });
});

describe('item 12: policy check --settings checks a user settings file against the admin policy', () => {
  it('settings that widen are problems at their paths; settings that tighten are OK', async () => {
    const policy = await file(JSON.stringify({ version: 1, workspaceRoots: [ws], defaults: { write: 'deny' } }));
    const wide = await file(JSON.stringify({ defaults: { write: 'allow' }, workspaceRoots: [base], model: { endpoints: ['http://10.0.0.9:8080/'] } }), 'wide-settings.json');
    const r = await runCli(['policy', 'check', policy, '--settings', wide, '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/wide-settings\.json: 3 problems/);
    expect(r.stdout).toMatch(/\$\.defaults\.write: User settings may only make defaults stricter/);
    expect(r.stdout).toMatch(/\$\.workspaceRoots\[0\]: .* is not inside the administrator's workspace folders/);
    expect(r.stdout).toMatch(/\$\.model\.endpoints\[0\]: User settings may only narrow the model servers/);
    const narrow = await file(JSON.stringify({ rules: { deny: ['shell.*'] }, model: { endpoints: ['http://127.0.0.1:8080/'] } }), 'narrow-settings.json');
    const ok = await runCli(['policy', 'check', policy, '--settings', narrow, '--lang', 'en']);
    expect(ok.stdout).toMatch(/OK .*narrow-settings\.json\n {2}the settings stay within the administrator's policy/);
    expect(ok.code).toBe(0);
  });
});

describe('item 13: admin-facing messages follow --lang', () => {
  it('policy problems, in Korean and English', async () => {
    const bad = await file('{ "version": 1, "defaults": { "read": "maybe" } }');
    const ko = await runCli(['policy', 'check', bad, '--lang', 'ko']);
    expect(ko.stdout).toMatch(/문제 1개\n {2}\$\.defaults\.read: allow, ask, deny 중 하나여야 합니다\(지금은 'maybe'\)/);
    const en = await runCli(['policy', 'check', bad, '--lang', 'en']);
    expect(en.stdout).toMatch(/1 problem\n {2}\$\.defaults\.read: Must be one of: allow, ask, deny \(found 'maybe'\)/);
  });

  it('workspace and settings errors of a session, in Korean by default', async () => {

    const outside = await runCli(['call', 'filesystem.list', '{}', '--policy', await file(KOREAN_POLICY()), '--workspace', base, '--data-dir', data]);
    expect(outside.stderr).toMatch(/정책이 허용하는 폴더.*밖입니다\. 그 안의 폴더를 주세요\./);
    const missing = await runCli(['call', 'filesystem.list', '{}', '--workspace', ws, '--data-dir', data, '--settings', join(base, 'nope.json')]);
    expect(missing.stderr).toMatch(/설정 파일 .*nope\.json이\(가\) 없습니다/);
    const notFolder = await runCli(['call', 'filesystem.list', '{}', '--workspace', await file('x', 'a-file.txt'), '--data-dir', data, '--lang', 'en']);
    expect(notFolder.code).toBe(1);
    expect(notFolder.stderr).toMatch(/The workspace .*a-file\.txt is a file, not a folder\. Pass the folder that holds it as --workspace\./);
  });

  it('bad JSON arguments of baram call, in Korean and English', async () => {

    const json = await runCli(['call', 'filesystem.read', '{not json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/인수가 올바른 JSON이 아닙니다/);
    const jsonEn = await runCli(['call', 'filesystem.read', '{not json', '--lang', 'en']);
    expect(jsonEn.stderr).toMatch(/The arguments are not valid JSON/);
  });

  it('usage errors follow --lang', async () => {
    const usage = await runCli(['policy', 'check']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/사용법: baram policy check FILE/);
    const option = await runCli(['policy', 'check', 'p.json', '--lang=en', '--setings', 'x']);
    expect(option.stderr).toMatch(/Unknown option --setings/);
  });
});

describe('issue 16: baram model check respects the policy’s model section', () => {
  it('a server the administrator did not list is never contacted; the message says to ask the administrator', async () => {
    const r = await runCli(['model', 'check', '--model', 'http://10.255.255.1:8080', '--policy', await file('{"version":1}'), '--data-dir', data, '--json', '--lang', 'en']);
    expect(r.code).toBe(1);
    expect(r.json()).toEqual({
      target: 'http://10.255.255.1:8080',
      allowed: false,
      problems: [expect.stringMatching(/^The administrator has not allowed the model server http:\/\/10\.255\.255\.1:8080\. Allowed servers: this computer \(127\.0\.0\.1, localhost\)\. To use another one, ask the administrator/)],
    });
  });

  it('the refusal in Korean by default', async () => {
    const ko = await runCli(['model', 'check', '--model', 'http://10.255.255.1:8080', '--policy', await file('{"version":1}'), '--data-dir', data]);
    expect(ko.stdout).toMatch(/관리자가 모델 서버 .*을\(를\) 허용하지 않았습니다.*관리자에게/);
  });

  it('an unlisted GGUF file is refused, never opened', async () => {
    const gguf = await file('not a gguf', 'model.gguf');
    const unlisted = await runCli(['model', 'check', '--model', gguf, '--policy', await file('{"version":1}'), '--data-dir', data, '--lang', 'en']);
    expect(unlisted.code).toBe(1);
    expect(unlisted.stdout).toMatch(/has not allowed the model file .*model\.gguf\. Allowed files and folders: none/);
  });

  it('a listed GGUF file is checked (its bad header reported), not refused', async () => {
    const gguf = await file('not a gguf', 'listed.gguf');
    const listed = await runCli(['model', 'check', '--model', gguf, '--policy', await file(JSON.stringify({ version: 1, model: { files: [base] } })), '--data-dir', data, '--lang', 'en']);
    expect(listed.code).toBe(1);
    expect(listed.stdout).not.toMatch(/has not allowed/);
    expect(listed.stdout).toMatch(/kind: embedded/);
  });
});
