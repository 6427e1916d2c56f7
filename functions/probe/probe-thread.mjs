// Entry of a probe thread started from the TypeScript sources (`tm local`, tests): plain
// JavaScript, so it starts without a TypeScript loader, registers tsx as the main thread did,
// then runs probe-pool.ts, whose thread side serves the probes. (The Lambda bundle is plain
// JavaScript already and is its own thread entry.)
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.module, workerData.module);
