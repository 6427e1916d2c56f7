/** Azure Traffic Manager's API values (SPEC §4). */
export const EndpointMonitorStatus = {
  Inactive: 'Inactive',
  Disabled: 'Disabled',
  Online: 'Online',
  Degraded: 'Degraded',
  CheckingEndpoint: 'CheckingEndpoint',
  Stopped: 'Stopped',
  Unmonitored: 'Unmonitored',
} as const;
export type EndpointMonitorStatus = (typeof EndpointMonitorStatus)[keyof typeof EndpointMonitorStatus];

export const ProfileMonitorStatus = {
  Disabled: 'Disabled',
  Degraded: 'Degraded',
  Online: 'Online',
  CheckingEndpoints: 'CheckingEndpoints',
  Inactive: 'Inactive',
} as const;
export type ProfileMonitorStatus = (typeof ProfileMonitorStatus)[keyof typeof ProfileMonitorStatus];

/** A region's verdict about one probe target under the per-region rule. */
export const RegionVerdict = { Up: 'up', Down: 'down' } as const;
export type RegionVerdict = (typeof RegionVerdict)[keyof typeof RegionVerdict];

/** Endpoint monitor statuses that make an endpoint eligible for DNS answers (SPEC §4/§5). */
export const AVAILABLE_STATUSES: ReadonlySet<EndpointMonitorStatus> = new Set([
  EndpointMonitorStatus.Online,
  EndpointMonitorStatus.CheckingEndpoint,
  EndpointMonitorStatus.Unmonitored,
]);
