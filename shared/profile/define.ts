/**
 * The typed helper a `.ts` definitions file wraps its default export in, so editors
 * check field names and values as the user types:
 *
 *   import { defineProfiles } from 'traffic-manager';
 *   export default defineProfiles([{ name: 'shop', trafficRoutingMethod: 'Priority', … }]);
 */
import type { ProfileInput } from './schema.js';

export type { EndpointInput, MonitorConfigInput, ProfileInput } from './schema.js';

export function defineProfiles(list: ProfileInput[]): ProfileInput[] {
  return list;
}
