/** What the status core reports per profile and endpoint; stored by the evaluator, printed by `tm status`. */
import type { RegionVote } from '../monitor/aggregate.js';
import type { EndpointMonitorStatus, ProfileMonitorStatus } from './vocabulary.js';

export type { RegionVote } from '../monitor/aggregate.js';

export interface EndpointStatusReport {
  readonly endpoint: string;
  readonly status: EndpointMonitorStatus;
  /** Epoch ms when this status began; kept across evaluations while the status holds. */
  readonly since: number;
  /** Human text: why this status, e.g. "4 consecutive failures (tolerated 3) in 2/3 regions". */
  readonly reason: string;
  /** True when no fresh probe data backs the status (it was kept from before: fail static). */
  readonly stale: boolean;
  /** External monitored endpoints: the probe target whose verdicts decided. */
  readonly targetKey?: string;
  /** Per probe region; empty for endpoints that are not probed (disabled, always serve, nested). */
  readonly votes: RegionVote[];
}

export interface ProfileStatusReport {
  readonly profile: string;
  readonly status: ProfileMonitorStatus;
  readonly since: number;
  /** True when any endpoint's status (or a nested child's) rests on stale data. */
  readonly stale: boolean;
  readonly endpoints: EndpointStatusReport[];
}

interface StatusChangeBase {
  readonly profile: string;
  /** The status's `since` after the change. */
  readonly since: number;
  readonly reason: string;
  /** The stale flag before (undefined: first report) and after. */
  readonly staleBefore: boolean | undefined;
  readonly stale: boolean;
  readonly votes: RegionVote[];
}

/** An endpoint monitor status change (or a change of its stale flag). */
export interface EndpointStatusChange extends StatusChangeBase {
  readonly endpoint: string;
  readonly before: EndpointMonitorStatus | undefined;
  readonly after: EndpointMonitorStatus;
}

/** A profile monitor status change (or a change of its stale flag); `endpoint` is undefined. */
export interface ProfileStatusChange extends StatusChangeBase {
  readonly endpoint: undefined;
  readonly before: ProfileMonitorStatus | undefined;
  readonly after: ProfileMonitorStatus;
}

export type StatusChange = EndpointStatusChange | ProfileStatusChange;
