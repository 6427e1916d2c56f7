#!/usr/bin/env node
// The `tm` CLI. In this repository it runs the TypeScript sources through tsx (no build step);
// in the installed package, where only the compiled dist/ ships, it runs the compiled JS.
/* global process, URL */
import { existsSync } from 'node:fs';

// The AWS SDK warns at every start that releases after January 2027 need Node 22; it says nothing about this run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const source = new URL('../infra/cli/main.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = await import(new URL('../dist/infra/cli/main.js', import.meta.url).href));
}
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Every command answers its own errors; this is the last resort, one line and no stack trace.
  process.stderr.write(`tm: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
