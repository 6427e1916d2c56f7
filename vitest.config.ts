import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.js';

/**
 * Three projects; `npm test` runs all three, `npm run test:unit` the first.
 * - unit: no process, no socket, no DynamoDB Local, so no Java (worker threads are allowed:
 *   the definitions loader runs a module in one). The project has no global setup, and its
 *   setup file test/support/unit-guard.ts makes starting a process, listening, connecting and
 *   binding throw, so a test filed here that needs one fails, naming what it tried.
 * - integration (the default: a test file not named below is one): DynamoDB Local, started
 *   once by this project's global setup, loopback servers, probe threads.
 * - e2e: `tm` and `tm local` as child processes (whole local stacks, the CLI, hostile files),
 *   dig, chromium, npm pack. None of them uses the shared DynamoDB Local: each stack starts its own.
 */
const ALL = 'test/**/*.test.ts';
const UNIT = [
  'test/{core,docs,errors}/**/*.test.ts',
  // Not config-writer (it writes its items to DynamoDB Local) nor app and definitions (e2e, below).
  'test/cdk/!(app|config-writer|definitions).test.ts',
  'test/handlers/{batch-items,environment}.test.ts',
  'test/evaluator/{certificate-tick,event-sinks,route53-codec,stream-records}.test.ts',
  'test/local/{dns-answer,dns-locations,state-store-watch}.test.ts',
  'test/probe/{cadence,checkpoint-claims,cpu-scale,plan,probe-failure,recovery-threshold,reenabled-worker}.test.ts',
  'test/probe/{region-sizing,round-handler,round-start,shard-capacity,shards,shared-target}.test.ts',
  'test/probe/{tick-memory,tick-schedule,worker,worker-targets}.test.ts',
];
const E2E = [
  // Not control-race and json-help: they use the integration project's DynamoDB Local.
  'test/cli/!(control-race|json-help).test.ts',
  'test/package/**/*.test.ts',
  'test/ui/status-page-browser.test.ts',
  'test/local/*-e2e.test.ts',
  'test/local/{certificate-expiry,current-status,demo-control,dns-dig,dns-tcp-bounds,local-fuzz}.test.ts',
  'test/local/{stack-secrets,state-file,state-store-gone,tm-local-process}.test.ts',
  // The CDK app as `cdk synth` runs it: esbuild bundles each handler (a child process), and
  // definitions runs `tm validate` and the app as child processes.
  'test/cdk/{app,definitions}.test.ts',
];
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    chaiConfig: { truncateThreshold: 0 },
    // Four files at a time on CI's two cores: most files wait on (time-scaled) timers, not the
    // CPU. The default (cores − 1 = one file at a time) took 1,629 s for the suite; three, 808 s
    // (610 s once tm and DynamoDB Local started cheaper); four, 560 s.
    maxWorkers: 4,
    // The longest files start first, so none of them is left to finish alone at the end.
    sequence: { sequencer: LongestFirst },
    // Generous for three files at a time on two cores; each test still bounds its own waits.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The files a worker runs share its module cache: the SDK, aws-cdk-lib and the local stack are
    // imported once per worker, not once per file. The unit files took 54 s of CPU isolated and 22 s
    // shared; the integration files 268 s and 176 s. So a test restores what it changes of the
    // process (environment, fake timers, listeners) in its own after-hooks, and product code keeps
    // no module state that a second caller with other arguments would silently get.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          setupFiles: ['test/support/unit-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [ALL],
          exclude: [...UNIT, ...E2E],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
    coverage: {
      provider: 'v8',
      include: ['shared/**/*.ts', 'functions/**/*.{ts,mjs}'],
      exclude: ['infra/**', 'test/**'],
      reporter: ['text-summary'],
      reportsDirectory: 'coverage',
      thresholds: {
        'shared/**': { lines: 95, branches: 94 },
        'functions/**': { lines: 90, branches: 90 },
      },
    },
  },
});
