/**
 * A process that rejects a promise nobody awaits, then says whether it is still running.
 * Argument `keep-running`: install tm local's handler (infra/cli/keep-running.ts) first.
 */
import { logUnhandledRejections } from '../../infra/cli/keep-running.js';

if (process.argv[2] === 'keep-running') logUnhandledRejections((line) => process.stdout.write(`${line}\n`));
void Promise.reject(new Error('nobody awaited this'));
setTimeout(() => process.stdout.write('still running\n'), 200);
