#!/usr/bin/env node
// The `tm` CLI. Registers tsx so the TypeScript sources (and `.ts` definition files) load without a build step.
/* global process */
import { register } from 'tsx/esm/api';

// The AWS SDK warns at every start that releases after January 2027 need Node 22; it says nothing about this run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

register();
const { main } = await import('../infra/cli/main.ts');
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Every command answers its own errors; this is the last resort, one line and no stack trace.
  process.stderr.write(`tm: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
