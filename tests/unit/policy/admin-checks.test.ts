import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodePolicyBytes, parsePolicyText, policyWarnings } from '../../../electron/main/policy';

/** Issue 15, items 9 and 11: the pieces `baram policy check` is built from, on their own. */

describe('decodePolicyBytes', () => {
  const refusal = (bytes: Uint8Array) => {
    const r = decodePolicyBytes(bytes, 'p.json', 'policy');
    return r.ok ? null : r.problems.map((p) => p.message.en);
  };

  it('UTF-8 with or without BOM decodes; the text is exact', () => {
    const text = '{"version":1,"workspaceRoots":["C:/문서"]}';
    expect(decodePolicyBytes(Buffer.from(text), 'p.json', 'policy')).toEqual({ ok: true, value: text });
    expect(decodePolicyBytes(Buffer.from(`\uFEFF${text}`), 'p.json', 'policy')).toEqual({ ok: true, value: `\uFEFF${text}` });
  });

  it('names CP949 only when it is CP949 with Korean in it; other non-UTF-8 bytes are "an encoding other than UTF-8"', () => {
    expect(refusal(iconv.encode('{"a":"문서"}', 'cp949'))).toEqual([expect.stringMatching(/^The policy file p\.json is saved as CP949/)]);
    expect(refusal(iconv.encode('{"a":"café"}', 'latin1'))).toEqual([expect.stringMatching(/^The policy file p\.json is saved as an encoding other than UTF-8\./)]);
    expect(refusal(Buffer.from([0xfe, 0xff, 0, 0x7b, 0, 0x7d]))).toEqual([expect.stringMatching(/UTF-16/)]);
  });
});

describe('policyWarnings: whole-drive roots on Windows', () => {
  it("C:\\ and D:\\ are whole drives; C:\\Baram is not", () => {
    const loaded = parsePolicyText(JSON.stringify({ version: 1, workspaceRoots: ['C:\\', 'D:/', 'C:\\Baram'], shell: { trustedDirs: ['C:\\Windows\\System32'] } }), 'C:\\Users\\kim', { platform: 'win32' });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const warnings = policyWarnings(loaded.value, [], 'win32').filter((w) => w.path.startsWith('$.workspaceRoots'));
    expect(warnings.map((w) => w.path)).toEqual(['$.workspaceRoots[0]', '$.workspaceRoots[1]']);
    expect(warnings[0]!.message.ko).toMatch(/드라이브 전체/);
  });
});
