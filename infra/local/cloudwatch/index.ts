export { startLocalCloudWatch, type LocalCloudWatch } from './server.js';
