#!/usr/bin/env node
// The `tm` CLI. Registers tsx so the TypeScript sources (and `.ts` definition files) load without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../infra/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
