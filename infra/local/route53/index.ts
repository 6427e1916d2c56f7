export { startLocalRoute53, type LocalRoute53 } from './server.js';
