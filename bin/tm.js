#!/usr/bin/env node
// The `tm` CLI. Registers tsx so the TypeScript sources (and `.ts` definition files) load without a build step.
/* global process */
import { register } from 'tsx/esm/api';

// The AWS SDK warns at every start that releases after January 2027 need Node 22; it says nothing about this run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

register();
const { main } = await import('../infra/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
