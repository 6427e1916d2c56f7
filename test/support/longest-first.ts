/**
 * The order vitest starts test files in: the files known to take longest first, then the rest
 * in vitest's own order (projects alphabetically — e2e, integration, unit — and within each the
 * slowest or largest first). Three files run at a time; without a record of earlier runs (a
 * clean clone, as CI has) vitest orders by file size, which started a 4-minute file 214 s into
 * a run and made the last files wait for it. Durations from a clean-clone run on the 2-core CI
 * machine (seconds); a stale figure only costs scheduling, never a result.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST: readonly (readonly [string, number])[] = [
  ['test/local/tm-local-process.test.ts', 160],
  ['test/local/static-failover-faults-e2e.test.ts', 120],
  ['test/local/static-failover-faults-more-e2e.test.ts', 120],
  ['test/local/static-failover-e2e.test.ts', 119],
  ['test/cli/validate-hostile.test.ts', 105],
  ['test/local/stack-e2e.test.ts', 80],
  ['test/local/state-store-gone.test.ts', 70],
  ['test/local/runtime-control-e2e.test.ts', 62],
  ['test/package/packed-app.test.ts', 52],
  ['test/local/restart-keeps-state.test.ts', 52],
  ['test/local/static-steering-e2e.test.ts', 52],
  ['test/probe/shared-target-timing.test.ts', 39],
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = (file: TestSpecification) =>
      LONGEST.find(([path]) => file.moduleId.endsWith(path))?.[1] ?? 0;
    // Array.prototype.sort is stable: files without a figure keep vitest's order.
    return sorted.sort((a, b) => seconds(b) - seconds(a));
  }
}
