import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          testTimeout: 60_000,
          // Vitest's default on 2 cores is one worker; the sandbox tests wait on child processes, and two workers
          // take the unit run from 180 s to 112 s there.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/*/src/**/*.int.test.ts', 'packages/*/src/**/*.int.test.ts', 'test/**/*.int.test.ts'],
          globalSetup: ['packages/testkit/src/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
