import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compilePathVeto } from '../../../electron/main/policy';
import type { EffectivePolicy } from '../../../electron/main/policy/types';
import { collect, makeSandbox, type Sandbox } from './sandbox';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  await mkdir(path.join(box.ws, 'a', '인사'), { recursive: true });
  await writeFile(path.join(box.ws, 'a', '인사', 'pay.txt'), 'secret');
  await writeFile(path.join(box.ws, 'a', 'open.txt'), 'open');
});
afterEach(async () => {
  await box.cleanup();
});

const veto = { ruleFor: (p: string) => (p.normalize('NFC').includes('/인사') ? 'deny-hr' : null) };

describe('FileAccess.withPathVeto (issue 14 class 3)', () => {
  it('walk, readTree, list and glob skip and count what the veto covers; the base view does not', async () => {
    const view = box.files.withPathVeto!(veto);
    const walked = (await collect(view.walk('.'))).map((e) => path.basename(e.path));
    expect(walked).toContain('open.txt');
    expect(walked).not.toContain('pay.txt');
    const read = (await collect(view.readTree('.', { windowBytes: 64 }))).map((f) => path.basename(f.path));
    expect(read).toEqual(['open.txt']);
    const listed = (await view.list('.', { recursive: true })).map((e) => path.basename(e.path));
    expect(listed).not.toContain('인사');
    expect(listed).not.toContain('pay.txt');
    expect(await view.glob('**/*.txt')).toEqual([path.join(box.ws, 'a', 'open.txt')]);
    expect(view.skippedByPolicy!()).toBe(4);
    // The gate's own view (used to judge folder trees) still sees everything.
    expect((await box.files.list('.', { recursive: true })).map((e) => path.basename(e.path))).toContain('pay.txt');
    expect(box.files.skippedByPolicy!()).toBe(0);
  });
});

describe('compilePathVeto', () => {
  const env = (root: string) => ({ roots: [root], home: '/home/u', platform: 'linux' as const, protectedPaths: [] });
  const eff = (rules: { deny?: string[]; ask?: string[] }): EffectivePolicy => {
    const sourced = (list: string[] | undefined) => (list ?? []).map((text) => ({ text, source: 'admin' as const }));
    // compilePathVeto reads the rules only.
    return { rules: { allow: [], deny: sourced(rules.deny), ask: sourced(rules.ask) } } as unknown as EffectivePolicy;
  };

  it('covers the tool\'s deny and ask PATH rules, NFC, except the approved ask rule', () => {
    const e = eff({ deny: ['filesystem.*(**/인사/**)', 'shell.execute(rm:*)'], ask: ['search.text(**/기밀/**)'] });
    const list = compilePathVeto(e, env('/ws'), 'filesystem.list')!;
    expect(list.ruleFor('/ws/a/인사/x')).toBe('filesystem.*(**/인사/**)');
    expect(list.ruleFor(`/ws/a/${'인사'.normalize('NFD')}/x`)).toBe('filesystem.*(**/인사/**)');
    expect(list.ruleFor('/ws/a/기밀/x')).toBeNull();
    const search = compilePathVeto(e, env('/ws'), 'search.text')!;
    expect(search.ruleFor('/ws/기밀/x')).toBe('search.text(**/기밀/**)');
    expect(compilePathVeto(e, env('/ws'), 'search.text', 'search.text(**/기밀/**)')).toBeNull();
    expect(compilePathVeto(e, env('/ws'), 'http.request')).toBeNull();
  });
});
