import { startPreviewHarness } from '../tests/helpers/preview-harness';
import { demoTurns, demoWorkspace } from './preview-demo';

/**
 * `npm run preview`: the desktop app's window in any browser, on this computer only
 * (docs/2026-12-03-preview-harness.md). Prints the one URL that works (it holds this run's token).
 * Ctrl-C closes the session and removes the temp folder.
 */
const port = process.env['BARAM_PREVIEW_PORT'] ? Number(process.env['BARAM_PREVIEW_PORT']) : 0;
const harness = await startPreviewHarness({ turns: demoTurns(), setup: demoWorkspace, port });
process.stdout.write(
  [
    '',
    '바람 미리 보기 / Baram preview',
    `  URL:        ${harness.url}`,
    `  workspace:  ${harness.workspace}`,
    `  audit:      ${harness.dataDir}`,
    '  (127.0.0.1 only; the token in the URL is required. Ctrl-C to stop.)',
    '',
  ].join('\n'),
);
let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  harness.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
