/**
 * The vote sink on CloudWatch: PutMetricData in the probe region's own CloudWatch (a client
 * from functions/shared/aws-clients.ts, built for that region), at most 1,000 metrics a
 * request (CloudWatch's limit), one request after another; grouped by namespace (every vote
 * has the static-failover namespace, so one group in practice).
 */
import { PutMetricDataCommand, type CloudWatchClient, type MetricDatum } from '@aws-sdk/client-cloudwatch';
import { chunked } from '../../shared/batches.js';
import { groupBy } from '../../shared/group-by.js';
import { METRICS_PER_REQUEST } from '../../shared/static-failover/cost.js';
import type { VoteDatum } from '../../shared/static-failover/votes.js';
import type { VoteSink } from './worker/vote-publisher.js';

export function cloudWatchVoteSink(client: CloudWatchClient): VoteSink {
  return {
    async publish(data) {
      for (const [namespace, votes] of groupBy(data, (datum) => datum.metric.namespace))
        for (const batch of chunked(votes.map(metricDatumOf), METRICS_PER_REQUEST))
          await client.send(new PutMetricDataCommand({ Namespace: namespace, MetricData: batch }));
    },
  };
}

function metricDatumOf(datum: VoteDatum): MetricDatum {
  return {
    MetricName: datum.metric.metricName,
    Dimensions: datum.metric.dimensions.map((d) => ({ Name: d.name, Value: d.value })),
    Value: datum.value,
    Timestamp: new Date(datum.timestamp),
    // Standard resolution: Route 53's CLOUDWATCH_METRIC checks support no other.
    StorageResolution: 60,
  };
}
