/**
 * Restores the judges without an in-memory state (a new worker, a config change, a reshard)
 * from their verdict and from the checkpoint of the latest heartbeat whose shard claimed their
 * request when it was written — the one that counted their last checks, so nothing is lost
 * and nothing counted twice when requests move between shards — and their certificates from
 * whichever shard saw them last.
 */
import { claimsOf, holderOf } from '../../../shared/probe/checkpoint-claims.js';
import type { PlannedProbe } from '../../../shared/probe/target.js';
import type { ProbeStateStore } from '../dynamodb-state-store.js';
import type { CheckRecords } from './check-records.js';
import type { HeartbeatWriter } from './heartbeat-writer.js';
import type { RuleStates } from './rule-states.js';

export interface RestoreParts {
  readonly region: string;
  readonly shard: number;
  readonly store: Pick<ProbeStateStore, 'loadHeartbeats' | 'loadVerdicts' | 'loadCertificates'>;
  readonly rules: RuleStates;
  readonly records: CheckRecords;
  readonly heartbeat: Pick<HeartbeatWriter, 'adopt'>;
}

export async function restoreMissingStates(
  parts: RestoreParts,
  planned: readonly PlannedProbe[],
): Promise<void> {
  const { region, shard, store, rules, records } = parts;
  const missing = planned.flatMap((probe) =>
    probe.judges.filter((j) => !rules.has(j.key)).map((judge) => ({ judge, request: probe.key })),
  );
  if (missing.length === 0) return;
  const [heartbeats, stored, certificateItems] = await Promise.all([
    store.loadHeartbeats(region),
    store.loadVerdicts(
      region,
      missing.map(({ judge }) => judge.key),
    ),
    store.loadCertificates(region),
  ]);
  const verdicts = new Map(stored.map((item) => [item.targetKey, item]));
  const claims = claimsOf(heartbeats);
  parts.heartbeat.adopt(heartbeats);
  // Certificates by verdict key, whichever shard saw them (newest item first; a heartbeat of
  // an earlier version carried them itself).
  const seen = [...certificateItems, ...heartbeats]
    .sort((a, b) => b.at - a.at)
    .map((item) => item.certificates ?? {});
  const own = certificateItems.find((item) => (item.shard ?? 0) === shard)?.certificates ?? {};
  for (const { judge, request } of missing) {
    const holder = holderOf(claims, request);
    const certificate = seen.find((c) => c[judge.key] !== undefined)?.[judge.key];
    // Not in this shard's own item yet (moved here, or from an older heartbeat): written next heartbeat.
    if (certificate !== undefined) records.restoreCertificate(judge.key, certificate, own[judge.key]);
    rules.restore(judge, verdicts.get(judge.key), holder, holder?.checkpoint[judge.key]);
  }
}
