/**
 * Default deployment name: the physical name of the state table, the event bus and the
 * dashboard, and the prefix of the probe functions and queues. Fixed names let the probe
 * stacks in other regions address the table without cross-region references.
 */
export const DEFAULT_DEPLOYMENT_NAME = 'traffic-manager';
