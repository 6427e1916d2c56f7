export { startLocalCloudWatch, type LocalCloudWatch, type LocalCloudWatchOptions } from './server.js';
export type { AlarmStates, AlarmStateValue } from './alarm-states.js';
export * from './errors.js';
