/**
 * The local Route 53 in its own process, so the bench's CPU figures are the evaluator's
 * alone. Protocol (JSON lines): it prints `{"type":"ready","endpoint":…}`, then one
 * `{"type":"change",…}` per applied ChangeResourceRecordSets batch (with the wall-clock
 * time it arrived), and answers `calls` / `records` / `reset` requests read from stdin.
 */
import { createInterface } from 'node:readline';
import { startLocalRoute53 } from '../../../infra/local/route53/server.js';
import { addCost, costOf, NO_COST } from '../../../shared/zone/batch-limits.js';

const zoneId = process.argv[2] ?? 'Z00000000000000000001';
const route53 = await startLocalRoute53();
route53.createHostedZone('example.com', zoneId);
let callsFrom = 0;

const emit = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);

route53.onChange((hostedZoneId, changes) => {
  const cost = changes.map(costOf).reduce(addCost, NO_COST);
  emit({ type: 'change', at: Date.now(), hostedZoneId, changes: changes.length, ...cost });
});

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'calls') emit({ type: 'calls', calls: route53.calls.slice(callsFrom) });
  else if (line === 'records') emit({ type: 'records', records: route53.records(zoneId) });
  else if (line === 'reset') {
    callsFrom = route53.calls.length;
    emit({ type: 'reset' });
  } else if (line === 'stop') void route53.stop().then(() => process.exit(0));
});

emit({ type: 'ready', endpoint: route53.endpoint });
