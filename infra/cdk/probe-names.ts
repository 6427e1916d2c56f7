/**
 * Physical names of the per-region probe resources. They are derived from the deployment
 * name (not generated) so the home stack's dashboard can show every region without
 * cross-region references.
 */
/** Shard 0 keeps the unsharded names; shard n > 0 appends `-<n>`. */
const ofShard = (shard: number) => (shard === 0 ? '' : `-${shard}`);
export const probeFunctionName = (deployment: string, shard = 0) => `${deployment}-probe${ofShard(shard)}`;
export const probeTickFunctionName = (deployment: string) => `${deployment}-probe-tick`;
export const roundQueueName = (deployment: string, shard = 0) => `${deployment}-rounds${ofShard(shard)}`;
export const roundDeadLetterQueueName = (deployment: string) => `${deployment}-rounds-dlq`;
