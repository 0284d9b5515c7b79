/**
 * `npm run lint:electron`: electronegativity over the main process, preload and shared code
 * (electron/) and over the page (renderer/index.html, its meta CSP), plus the response-header CSP
 * evaluated from the very text headerCsp() produces (the scanner cannot read a computed policy).
 * Any finding fails the run; exceptions are annotated in the code with `eng-disable` and each one
 * is justified in docs/2026-12-03-electronegativity.md. Works offline: the tool's translation and
 * Electron-release downloads fail fast here, and the release check is left out (see the doc).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headerCsp } from '../electron/main/app/csp';

interface Finding {
  readonly id: string;
  readonly file: string;
  readonly location?: { readonly line: number };
  readonly description: string;
  readonly severity: { readonly name?: string } | string;
  readonly confidence: { readonly name?: string } | string;
}
type Run = (options: Record<string, unknown>) => Promise<{ issues: Finding[]; errors: { file: string; message: string; tolerable: boolean }[] }>;

const project = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity') as Run;
// The CSP evaluator electronegativity itself uses, from electronegativity's own dependencies.
const cspEvaluator = createRequire(require.resolve('@doyensec/electronegativity'))('@doyensec/csp-evaluator') as {
  CspParser: new (text: string) => { csp: unknown };
  CspEvaluator: new (csp: unknown, version: unknown) => { evaluate(): { severity: number; directive: string; description: string }[] };
  Version: { CSP3: unknown };
  severities: Record<string, number>;
};

const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const electronVersion = pkg.devDependencies['electron']!;
const options = {
  isRelative: true,
  severitySet: 'informational',
  confidenceSet: 'tentative',
  // The version we ship, so the checks judge Electron 45's defaults, not v0.1's.
  electronVersionOverride: electronVersion,
  // Downloads Electron's release list to say whether a newer patch exists: no network here (nor in
  // the offices), and the version is pinned in package.json; upgrades are a release task.
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
};
// The tool looks for translations of its messages under $LANG; English ones ship with it.
process.env['LANG'] = 'en-US';

const name = (v: Finding['severity']) => (typeof v === 'string' ? v : (v.name ?? '?'));
const problems: string[] = [];
const main = await run({ ...options, input: join(project, 'electron') });
for (const i of main.issues) problems.push(`electron/${i.file}:${i.location?.line ?? 0} ${i.id} (${name(i.severity)}, ${name(i.confidence)}): ${i.description}`);
for (const e of main.errors) if (!e.tolerable) problems.push(`electron/${e.file}: could not be parsed: ${e.message}`);

// The page: its meta CSP, read by electronegativity's own HTML check (the global checks about
// navigation and permission handlers concern the main process, scanned above).
const page = await run({ ...options, excludeFromScan: [], input: join(project, 'renderer', 'index.html'), customScan: ['CSPHTMLCheck'] });
const metaPolicies = page.issues.filter((i) => i.id === 'CSP_HTML_CHECK').map((i) => (i as Finding & { properties?: { CSPstring?: string } }).properties?.CSPstring ?? '');
if (metaPolicies.length === 0) problems.push('renderer/index.html: no Content-Security-Policy meta tag');

/**
 * Findings the doc justifies, by directive and words: `script-src 'self'` is rated "maybe"
 * because a site could host JSONP or uploads on its own origin; the app's origin serves only its
 * own packaged files (docs/2026-12-03-electronegativity.md, exception 3).
 */
const justified = (f: { directive: string; description: string }) => f.directive === 'script-src' && f.description.startsWith("'self' can be problematic");

const { CspParser, CspEvaluator, Version, severities } = cspEvaluator;
const bad = new Set([severities['HIGH'], severities['MEDIUM'], severities['HIGH_MAYBE'], severities['MEDIUM_MAYBE']]);
for (const [where, policy] of [['headerCsp()', headerCsp()], ...metaPolicies.map((p) => ['renderer/index.html meta', p] as const)] as const) {
  for (const f of new CspEvaluator(new CspParser(policy).csp, Version.CSP3).evaluate()) {
    if (bad.has(f.severity) && !justified(f)) problems.push(`${where} ${f.directive}: ${f.description}`);
  }
}

for (const p of problems) console.error(`- ${p}`);
console.log(`electronegativity (Electron ${electronVersion}): ${problems.length === 0 ? 'clean' : `${problems.length} finding(s)`} over electron/, renderer/index.html and the header CSP`);
process.exit(problems.length === 0 ? 0 : 1);
