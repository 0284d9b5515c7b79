import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/{unit,integration,security,architecture}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration tests spawn real processes; keep them from starving each other.
    maxWorkers: 2,
    // The default report for people, then one closing "N passed, N failed" line for CI (.ci/run).
    // A path, not an import: vite's config loader warns about extension-less imports in config files.
    reporters: ['default', './tests/reporters/summary-line.ts'],
  },
});
