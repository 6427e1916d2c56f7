import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    chaiConfig: { truncateThreshold: 0 },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'functions/**/*.{ts,mjs}'],
      exclude: ['infra/**', 'test/**'],
      reporter: ['text-summary'],
      reportsDirectory: 'coverage',
      thresholds: {
        // Branches 94: the Azure import modules' error branches keep shared/ at 94.5 %.
        'shared/**': { lines: 95, branches: 94 },
        'functions/**': { lines: 90, branches: 90 },
      },
    },
  },
});
