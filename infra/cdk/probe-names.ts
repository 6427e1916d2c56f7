/**
 * Physical names of the per-region probe resources. They are derived from the deployment
 * name (not generated) so the home stack's dashboard can show every region without
 * cross-region references.
 */
export const probeFunctionName = (deployment: string) => `${deployment}-probe`;
export const probeTickFunctionName = (deployment: string) => `${deployment}-probe-tick`;
export const roundQueueName = (deployment: string) => `${deployment}-rounds`;
export const roundDeadLetterQueueName = (deployment: string) => `${deployment}-rounds-dlq`;
