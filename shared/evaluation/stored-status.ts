/**
 * What the evaluator keeps per profile beside its status (the "actual" side of the next
 * diff), and which of those items an evaluation changes: an unchanged one is not rewritten.
 */
import type { Profile } from '../profile/types.js';
import { cidrCollectionNameOf } from '../routing/cidr-names.js';
import type { ProfileStatusReport } from '../status/evaluate.js';
import type { CidrCollection, RecordSet } from '../zone/record-set.js';
import type { RejectedName } from './zones.js';

/** What the evaluator last published for one profile, kept beside its status. */
export interface StoredStatus {
  readonly report: ProfileStatusReport;
  readonly hostedZoneId: string;
  /** The profile's fqdn: the only name its records live at. */
  readonly ownedName: string;
  readonly published: readonly RecordSet[];
  /** CIDR collections as published, with their Route 53 ids (Subnet profiles). */
  readonly cidrCollections: readonly CidrCollection[];
  /** Route 53 rejected this profile's last change (InvalidChangeBatch): `published` is then what the zone holds. */
  readonly publishProblem?: PublishProblem;
  /** Counts this profile's status writes; part of each event id (0: never written). */
  readonly revision: number;
}

export interface PublishProblem {
  /** Epoch ms of the rejected attempt. */
  readonly at: number;
  /** Route 53's reasons, as it gave them. */
  readonly reasons: readonly string[];
}

/** Profiles whose change Route 53 refused in this evaluation, with its reasons. */
export function publishProblems(
  profiles: readonly Profile[],
  rejected: ReadonlyMap<string, RejectedName>,
  now: number,
): Map<string, PublishProblem> {
  const problems = new Map<string, PublishProblem>();
  for (const profile of profiles) {
    const refused = rejected.get(profile.dnsConfig.fqdn);
    if (refused !== undefined) problems.set(profile.name, { at: now, reasons: refused.reasons });
  }
  return problems;
}

/** The status items this evaluation changes (an item equal to the stored one is left alone), each with its revision counted up. */
export function changedStatuses(
  profiles: readonly Profile[],
  reports: readonly ProfileStatusReport[],
  published: ReadonlyMap<string, RecordSet[]>,
  collections: readonly CidrCollection[],
  previous: ReadonlyMap<string, StoredStatus>,
  problems: ReadonlyMap<string, PublishProblem>,
): StoredStatus[] {
  const reportOf = new Map(reports.map((r) => [r.profile, r]));
  const changed: StoredStatus[] = [];
  for (const profile of profiles) {
    const report = reportOf.get(profile.name);
    if (report === undefined) continue;
    const ownedName = profile.dnsConfig.fqdn;
    const before = previous.get(profile.name);
    const next: StoredStatus = {
      report,
      hostedZoneId: profile.dnsConfig.hostedZoneId ?? '',
      ownedName,
      published: published.get(ownedName) ?? [],
      // Subnet profiles own one collection, named by the planner.
      cidrCollections:
        profile.trafficRoutingMethod === 'Subnet'
          ? collections.filter((c) => c.name === cidrCollectionNameOf(profile))
          : [],
      ...(problems.has(profile.name) ? { publishProblem: problems.get(profile.name) } : {}),
      revision: before?.revision ?? 0,
    };
    if (before === undefined || JSON.stringify(before) !== JSON.stringify(next))
      changed.push({ ...next, revision: next.revision + 1 });
  }
  return changed;
}
