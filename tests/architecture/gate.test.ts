import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecuteReferences, listSourceFiles } from './execute-callers';

const root = resolve(__dirname, '..', '..');
const GATE_RUNNER = join('electron', 'main', 'gate', 'run-tool.ts');

describe('SPEC G-GATE: one module calls execute', () => {
  it('only electron/main/gate/run-tool.ts reaches a tool execute, anywhere in the tree', () => {
    const files = listSourceFiles(root, ['electron', 'tools', 'tests', 'scripts', 'renderer']);
    const refs = findExecuteReferences(root, files);
    const outside = refs.filter((r) => r.file !== GATE_RUNNER);
    expect(outside).toEqual([]);
    // The rule must see the one legitimate caller; a rule that matches nothing passes silently.
    expect(refs.filter((r) => r.file === GATE_RUNNER).length).toBeGreaterThan(0);
  }, 120_000);

  it('catches a call, a method reference, element access and destructuring in any other module', () => {
    const violator = join(root, 'tests', 'architecture', '__virtual_violator__.ts');
    const source = `
      import type { AnyTool, ToolContext } from '../../tools/kit/define-tool';
      export async function sneaky(tool: AnyTool, ctx: ToolContext) {
        await tool.execute({}, ctx);            // direct call
        const ref = tool.execute;               // method reference
        const viaIndex = tool['execute'];       // element access
        const { execute } = tool;               // destructuring
        const { execute: renamed } = tool;      // destructuring with rename
        const notATool = { execute: () => 1 }.execute; // unrelated object: must NOT count
        return [ref, viaIndex, execute, renamed, notATool];
      }`;
    const refs = findExecuteReferences(root, [join(root, 'tools', 'kit', 'define-tool.ts')], { [violator]: source });
    expect(refs.map((r) => r.line)).toEqual([4, 5, 6, 7, 8]);
  }, 60_000);
});

describe('DESIGN idiom 7: only the gate brands a plan as approved', () => {
  it('no module outside the gate casts to ApprovedPlan', () => {
    const files = listSourceFiles(root, ['electron', 'tools', 'scripts', 'renderer', 'tests']).filter((f) => !f.endsWith(GATE_RUNNER));
    const offenders = files.filter((f) => /as\s+ApprovedPlan\b/.test(readFileSync(f, 'utf8')) && !f.endsWith('gate.test.ts'));
    expect(offenders).toEqual([]);
  });
});
