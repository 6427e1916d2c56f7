import packageJson from '../../../package.json' with { type: 'json' };

/**
 * Every HTTP/HTTPS probe sends this, whatever the custom headers say: endpoint owners
 * recognise (and allow-list) our probes by it, as they do Azure's
 * "Azure Traffic Manager Endpoint Monitor".
 */
export const PROBE_USER_AGENT = `traffic-manager-probe/${packageJson.version}`;
