/**
 * What one runtime control command changes in the table, decided from the deployed
 * definitions and the controls already there (pure; the CLI reads both, then writes this).
 *
 * - disable: the runtime status Disabled wins over the definitions (a later deploy does not
 *   undo it).
 * - enable: removes a runtime Disabled; when the definitions disable it, a runtime Enabled
 *   wins instead. Either way it records `enabledAt`: checks made before never count.
 * - override: a monitor status (Online or Degraded) by hand until now + `forMs`.
 * - clear: removes the endpoint's override and runtime status; the definitions decide again
 *   (recording `enabledAt` when that enables it).
 * Asking for what already holds changes nothing and says so.
 */
import type { Endpoint, Profile } from '../profile/types.js';
import type {
  ControlAuthor,
  MonitorOverrideItem,
  RuntimeControls,
  StatusControlItem,
} from '../state/items.js';
import { describeAuthor, describeOverride } from './describe.js';
import { InapplicableControlError, UnknownControlTargetError } from './errors.js';

export type ControlAction =
  | { readonly kind: 'disable' | 'enable'; readonly profile: string; readonly endpoint?: string }
  | {
      readonly kind: 'override';
      readonly profile: string;
      readonly endpoint: string;
      readonly status: MonitorOverrideItem['status'];
      readonly forMs: number;
    }
  | { readonly kind: 'clear'; readonly profile: string; readonly endpoint: string };

export interface ControlPlan {
  /** The status control to write, or `null` to delete it; absent: leave it. */
  readonly status?: StatusControlItem | null;
  /** The override to write, or `null` to delete it; absent: leave it. */
  readonly override?: MonitorOverrideItem | null;
  /** One line for the operator: what changed, or why nothing did. */
  readonly summary: string;
}

export interface Caller {
  readonly by: string;
  readonly reason?: string;
}

/** @throws UnknownControlTargetError, InapplicableControlError */
export function planControl(
  profiles: readonly Profile[],
  controls: RuntimeControls,
  action: ControlAction,
  caller: Caller,
  now: number,
): ControlPlan {
  const profile = profiles.find((p) => p.name === action.profile);
  if (profile === undefined) {
    throw new UnknownControlTargetError(
      `no profile "${action.profile}" is deployed (deployed: ${profiles.map((p) => p.name).join(', ') || 'none'})`,
    );
  }
  const endpoint = action.endpoint === undefined ? undefined : endpointOf(profile, action.endpoint);
  const subject = endpoint === undefined ? `profile ${profile.name}` : `${profile.name}/${endpoint.name}`;
  const set: ControlAuthor = {
    by: caller.by,
    at: now,
    ...(caller.reason === undefined ? {} : { reason: caller.reason }),
  };
  const control = controls.statuses.find((c) => c.profile === profile.name && c.endpoint === endpoint?.name);
  const deployed = endpoint === undefined ? profile.profileStatus : endpoint.endpointStatus;
  const effective = control?.status ?? deployed;
  const where =
    control?.status === undefined ? 'in the definitions' : `at runtime ${describeAuthor(control.set)}`;
  const base = { profile: profile.name, ...(endpoint === undefined ? {} : { endpoint: endpoint.name }) };

  switch (action.kind) {
    case 'disable':
      if (effective === 'Disabled') return { summary: `${subject} is already disabled ${where}` };
      return {
        status: { ...base, status: 'Disabled', set, ...enabledAtOf(control) },
        summary: `${subject} disabled: not probed, not in DNS answers`,
      };
    case 'enable':
      if (effective === 'Enabled') return { summary: `${subject} is already enabled ${where}` };
      return {
        status: { ...base, ...(deployed === 'Enabled' ? {} : { status: 'Enabled' }), set, enabledAt: now },
        summary: `${subject} enabled: CheckingEndpoint until checks made from now on decide`,
      };
    case 'override': {
      if (endpoint?.type !== 'external' || endpoint.alwaysServe) {
        throw new InapplicableControlError(
          endpoint?.type === 'nested'
            ? `${subject} is a nested endpoint: its status follows child profile "${endpoint.targetProfile}"; override that profile's endpoints instead`
            : `${subject} is always served (alwaysServe): it has no monitor status to override`,
        );
      }
      const override: MonitorOverrideItem = {
        profile: profile.name,
        endpoint: endpoint.name,
        status: action.status,
        until: now + action.forMs,
        set: { ...set, reason: caller.reason ?? '' },
      };
      return { override, summary: `${subject} ${describeOverride(override)}` };
    }
    case 'clear': {
      const override = controls.overrides.find(
        (o) => o.profile === profile.name && o.endpoint === endpoint?.name,
      );
      if (override === undefined && control?.status === undefined)
        return { summary: `${subject} has no runtime control to clear` };
      const reenabled = effective === 'Disabled' && deployed === 'Enabled';
      const enabledAt = reenabled ? now : control?.enabledAt;
      return {
        ...(override === undefined ? {} : { override: null }),
        ...(control?.status === undefined
          ? {}
          : { status: enabledAt === undefined ? null : { ...base, set, enabledAt } }),
        summary: `${subject}: runtime control cleared; the definitions decide again (${deployed}${reenabled ? ', CheckingEndpoint until checks made from now on decide' : ''})`,
      };
    }
  }
}

function endpointOf(profile: Profile, name: string): Endpoint {
  const endpoint = profile.endpoints.find((e) => e.name === name);
  if (endpoint === undefined) {
    throw new UnknownControlTargetError(
      `profile "${profile.name}" has no endpoint "${name}" (endpoints: ${profile.endpoints.map((e) => e.name).join(', ')})`,
    );
  }
  return endpoint;
}

function enabledAtOf(control: StatusControlItem | undefined) {
  return control?.enabledAt === undefined ? {} : { enabledAt: control.enabledAt };
}
