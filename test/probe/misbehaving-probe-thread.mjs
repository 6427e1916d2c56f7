// A probe thread that misbehaves around the real thread side (serveProbes), as
// `workerData.fault` says, for the probe pool's tests:
// - 'junk': before each batch of reports, posts malformed messages (and a report of a real
//   probe id with no observation);
// - 'die': exits 100 ms after its first batch of orders arrived, with those probes in flight.
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { serveProbes } = await tsImport(workerData.module, import.meta.url);

const JUNK = [null, 42, 'reports', {}, [null], [{ id: 'a' }], [{ id: 1e9, observation: { answered: true } }]];

if (workerData.fault === 'junk') {
  serveProbes({
    on: (event, listener) => parentPort.on(event, listener),
    postMessage: (reports) => {
      for (const junk of JUNK) parentPort.postMessage(junk);
      parentPort.postMessage(reports.map(({ id }) => ({ id, observation: 'not an observation' })));
      parentPort.postMessage(reports);
    },
  });
} else if (workerData.fault === 'die') {
  serveProbes({
    on: (event, listener) =>
      parentPort.on(event, (orders) => {
        listener(orders);
        setTimeout(() => process.exit(1), 100);
      }),
    postMessage: (reports) => parentPort.postMessage(reports),
  });
}
