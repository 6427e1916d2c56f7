// The worker thread in which `load.ts` imports a definitions module (the user's code), so that
// a hang, a busy loop or process.exit() inside it cannot take the caller with it. Plain
// JavaScript: it must start without a TypeScript loader, then registers tsx for the module.
// Posts exactly one message: { kind: 'value', value } | { kind: 'exit', code } | { kind: 'error', message }.
/* global process */
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const exit = process.exit.bind(process);
process.exit = (code) => {
  parentPort.postMessage({ kind: 'exit', code: code ?? process.exitCode ?? 0 });
  exit(code);
};

try {
  const module = await tsImport(workerData.url, workerData.url);
  if (!('default' in module)) {
    parentPort.postMessage({ kind: 'no-default' });
  } else {
    let value = module.default;
    // A module compiled to CommonJS (no "type": "module" nearby) arrives as { default: … }.
    if (value !== null && typeof value === 'object' && value.__esModule === true && 'default' in value)
      value = value.default;
    try {
      parentPort.postMessage({ kind: 'value', value });
    } catch (error) {
      parentPort.postMessage({ kind: 'not-data', message: String(error?.message ?? error) });
    }
  }
} catch (error) {
  parentPort.postMessage({ kind: 'error', message: String(error?.message ?? error) });
}
