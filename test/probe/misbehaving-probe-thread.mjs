// A probe thread that misbehaves around the real thread side (serveProbes), as
// `workerData.fault` says, for the probe pool's tests:
// - 'junk': before each batch of reports, posts malformed messages that name no probe in flight
//   (and report batches that are not whole, naming probe ids no lane ever gave);
// - 'truncate': posts every batch of reports with its last number cut off;
// - 'silent': probes, and never reports;
// - 'die': exits 100 ms after its first batch of orders arrived, with those probes in flight.
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { serveProbes } = await tsImport(workerData.module, import.meta.url);

const NOT_IN_FLIGHT = 1e9;
const JUNK = [
  null,
  42,
  'reports',
  {},
  [null],
  [{ id: 'a' }],
  [{ id: NOT_IN_FLIGHT, observation: { answered: true } }],
  { records: [NOT_IN_FLIGHT], observations: [], certificates: [] },
  { records: new Float64Array([NOT_IN_FLIGHT, -1, 0]), observations: [], certificates: [] },
  { records: new Float64Array(0), observations: [[NOT_IN_FLIGHT, 'not an observation']], certificates: [] },
  { records: new Float64Array(0), observations: [], certificates: [[0, 'not a certificate']] },
];

const port = {
  on: (event, listener) => parentPort.on(event, listener),
  postMessage: (reports) => parentPort.postMessage(reports),
};

if (workerData.fault === 'junk') {
  serveProbes({
    ...port,
    postMessage: (reports) => {
      for (const junk of JUNK) parentPort.postMessage(junk);
      parentPort.postMessage(reports);
    },
  });
} else if (workerData.fault === 'truncate') {
  serveProbes({
    ...port,
    postMessage: (reports) =>
      parentPort.postMessage({ ...reports, records: reports.records.slice(0, reports.records.length - 1) }),
  });
} else if (workerData.fault === 'silent') {
  serveProbes({ ...port, postMessage: () => undefined });
} else if (workerData.fault === 'die') {
  serveProbes({
    ...port,
    on: (event, listener) =>
      parentPort.on(event, (orders) => {
        listener(orders);
        setTimeout(() => process.exit(1), 100);
      }),
  });
}
