import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/{unit,integration,security,architecture}/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: integration tests spawn real processes; keep them from starving each other.
    maxWorkers: 2,
  },
});
