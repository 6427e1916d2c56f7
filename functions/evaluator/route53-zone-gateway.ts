/**
 * Route 53 as a shared, rate-limited control plane, and the one retry layer for it. The
 * client comes from `route53Client()` (functions/shared/aws-clients.ts): SDK retries off, and
 * every request waits for the process's 5 requests/s limiter just before it is sent. Every
 * attempt here — first try or retry — is one request, counted (`Route53Calls`; retries also
 * `Route53Retries`). Throttling, `PriorRequestNotComplete`, 5xx and dropped connections are
 * retried at the limiter's next slot, for up to 30 s: the limiter already holds the account's
 * rate, so a wait on top of it would only delay the failover. A rejected batch surfaces as
 * `InvalidChangeBatchError` so the caller can reconcile against the real zone.
 */
import {
  ChangeCidrCollectionCommand,
  ChangeResourceRecordSetsCommand,
  CreateCidrCollectionCommand,
  GetChangeCommand,
  GetHostedZoneCommand,
  ListCidrBlocksCommand,
  ListCidrCollectionsCommand,
  ListCidrLocationsCommand,
  ListResourceRecordSetsCommand,
  type CidrCollectionChange,
  type ListResourceRecordSetsCommandOutput,
  type RRType,
  type ResourceRecordSet,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { MetricDimension, MetricName } from '../../shared/contracts/metrics.js';
import type { Change, CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { required } from '../shared/required.js';
import { isTransientAwsError, retrying, type RetryPolicy } from '../shared/retry.js';
import { InvalidChangeBatchError } from './errors.js';
import { rejectedBatchReasons } from './invalid-change-batch.js';
import type { EvaluatorMetrics, ZoneGateway } from './ports.js';
import { fromRoute53Name } from '../../shared/zone/names.js';
import { fromSdkRecordSet, fromSdkRecordSetName, toSdkRecordSet } from './route53-codec.js';

/** Route 53 returns at most 300 record sets per ListResourceRecordSets page. */
const LIST_PAGE_SIZE = 300;

/** Retry at the limiter's pace (no extra wait) for up to 30 s, half the evaluator's timeout. */
export const ROUTE53_RETRY: RetryPolicy = { retries: Infinity, baseDelayMs: 0, maxRetryTimeMs: 30_000 };

export interface Route53GatewayOptions {
  /** @default ROUTE53_RETRY */
  readonly retry?: RetryPolicy;
  readonly metrics?: EvaluatorMetrics;
}

export class Route53ZoneGateway implements ZoneGateway {
  constructor(
    private readonly client: Route53Client,
    private readonly options: Route53GatewayOptions = {},
  ) {}

  /**
   * Reads name by name (a call or more each), or the whole zone in pages of 300 record sets
   * when that takes fewer calls: a first sight of a thousand profiles costs a few calls, not
   * a thousand (at 5 calls/s, minutes). The zone's size comes from GetHostedZone.
   */
  async readRecords(hostedZoneId: string, names: ReadonlySet<string>): Promise<RecordSet[]> {
    if (names.size <= 2) return this.readByName(hostedZoneId, names);
    const size = await this.recordCount(hostedZoneId);
    const pages = Math.max(1, Math.ceil(size / LIST_PAGE_SIZE));
    return pages < names.size
      ? this.readWholeZone(hostedZoneId, names)
      : this.readByName(hostedZoneId, names);
  }

  /** The zone's record-set count; unknown (Infinity) when the role may not call GetHostedZone. */
  private async recordCount(hostedZoneId: string): Promise<number> {
    try {
      const zone = await this.call('GetHostedZone', () =>
        this.client.send(new GetHostedZoneCommand({ Id: hostedZoneId })),
      );
      return zone.HostedZone?.ResourceRecordSetCount ?? Infinity;
    } catch (error) {
      if ((error as { name?: string } | undefined)?.name === 'AccessDenied') return Infinity;
      throw error;
    }
  }

  private async readWholeZone(hostedZoneId: string, names: ReadonlySet<string>): Promise<RecordSet[]> {
    const records: RecordSet[] = [];
    for await (const page of this.pages(hostedZoneId))
      for (const set of recordSetsOf(page))
        if (names.has(fromSdkRecordSetName(set)) && isRecordType(set)) records.push(fromSdkRecordSet(set));
    return records;
  }

  private async readByName(hostedZoneId: string, names: ReadonlySet<string>): Promise<RecordSet[]> {
    const records: RecordSet[] = [];
    for (const name of [...names].sort()) {
      for await (const page of this.pages(hostedZoneId, `${name}.`)) {
        const sets = recordSetsOf(page);
        const here = sets.filter((s) => fromSdkRecordSetName(s) === name);
        records.push(...here.filter(isRecordType).map(fromSdkRecordSet));
        if (here.length < sets.length || !page.IsTruncated) break; // past our name, or the zone's end
        if (fromRoute53Name(required(page.NextRecordName, 'ListResourceRecordSets.NextRecordName')) !== name)
          break;
      }
    }
    return records;
  }

  /** The ListResourceRecordSets pages from `name` (from the zone's first record when undefined) to the zone's end. */
  private async *pages(hostedZoneId: string, name?: string) {
    let start: { name?: string; type?: RRType; identifier?: string } = { name };
    for (;;) {
      const page = await this.call('ListResourceRecordSets', () =>
        this.client.send(
          new ListResourceRecordSetsCommand({
            HostedZoneId: hostedZoneId,
            StartRecordName: start.name,
            StartRecordType: start.type,
            StartRecordIdentifier: start.identifier,
          }),
        ),
      );
      yield page;
      if (!page.IsTruncated) return;
      start = { name: page.NextRecordName, type: page.NextRecordType, identifier: page.NextRecordIdentifier };
    }
  }

  async publish(hostedZoneId: string, batch: readonly Change[]): Promise<string> {
    try {
      const out = await this.call('ChangeResourceRecordSets', () =>
        this.client.send(
          new ChangeResourceRecordSetsCommand({
            HostedZoneId: hostedZoneId,
            ChangeBatch: {
              Comment: 'traffic-manager',
              Changes: batch.map((c) => ({
                Action: c.action,
                ResourceRecordSet: toSdkRecordSet(c.recordSet),
              })),
            },
          }),
        ),
      );
      return required(out.ChangeInfo?.Id, 'ChangeResourceRecordSets.ChangeInfo.Id');
    } catch (error) {
      const reasons = rejectedBatchReasons(error);
      if (reasons !== undefined) throw new InvalidChangeBatchError(hostedZoneId, reasons);
      throw error;
    }
  }

  async changeStatus(changeId: string): Promise<'PENDING' | 'INSYNC'> {
    const out = await this.call('GetChange', () => this.client.send(new GetChangeCommand({ Id: changeId })));
    return out.ChangeInfo?.Status === 'INSYNC' ? 'INSYNC' : 'PENDING';
  }

  async syncCidrCollections(desired: readonly CidrCollection[]): Promise<CidrCollection[]> {
    if (desired.length === 0) return [];
    const existing = await this.allPages(
      'ListCidrCollections',
      (NextToken) => this.client.send(new ListCidrCollectionsCommand({ NextToken })),
      (page) => page.CidrCollections,
    );
    const result: CidrCollection[] = [];
    for (const collection of desired) {
      let summary = existing.find((c) => c.Name === collection.name);
      if (summary === undefined) {
        const created = await this.call('CreateCidrCollection', () =>
          this.client.send(
            new CreateCidrCollectionCommand({
              Name: collection.name,
              CallerReference: `tm-${collection.name}-${Date.now()}`,
            }),
          ),
        );
        summary = { Id: created.Collection?.Id, Name: collection.name, Version: created.Collection?.Version };
      }
      const id = required(summary.Id, 'CidrCollection.Id');
      const changes = await this.cidrChanges(id, collection);
      if (changes.length > 0) {
        await this.call('ChangeCidrCollection', () =>
          this.client.send(
            new ChangeCidrCollectionCommand({
              Id: id,
              CollectionVersion: summary?.Version,
              Changes: changes,
            }),
          ),
        );
      }
      result.push({ ...collection, id });
    }
    return result;
  }

  private async cidrChanges(id: string, desired: CidrCollection): Promise<CidrCollectionChange[]> {
    const locations = await this.allPages(
      'ListCidrLocations',
      (NextToken) => this.client.send(new ListCidrLocationsCommand({ CollectionId: id, NextToken })),
      (page) => page.CidrLocations,
    );
    const current = new Map<string, Set<string>>();
    for (const location of locations) {
      const name = required(location.LocationName, 'CidrLocations[].LocationName');
      const blocks = await this.allPages(
        'ListCidrBlocks',
        (NextToken) =>
          this.client.send(new ListCidrBlocksCommand({ CollectionId: id, LocationName: name, NextToken })),
        (page) => page.CidrBlocks,
      );
      current.set(name, new Set(blocks.map((b) => required(b.CidrBlock, 'CidrBlocks[].CidrBlock'))));
    }
    const changes: CidrCollectionChange[] = [];
    for (const [name, cidrs] of Object.entries(desired.locations)) {
      const have = current.get(name) ?? new Set<string>();
      const add = cidrs.filter((c) => !have.has(c));
      const remove = [...have].filter((c) => !cidrs.includes(c));
      if (add.length > 0) changes.push({ LocationName: name, Action: 'PUT', CidrList: add });
      if (remove.length > 0)
        changes.push({ LocationName: name, Action: 'DELETE_IF_EXISTS', CidrList: remove });
    }
    for (const [name, have] of current) {
      if (!(name in desired.locations) && have.size > 0) {
        changes.push({ LocationName: name, Action: 'DELETE_IF_EXISTS', CidrList: [...have] });
      }
    }
    return changes;
  }

  /**
   * Every item of a NextToken-paged listing (the CIDR lists: Route 53 does not document their
   * page size), each page one request through `call`. Not the SDK's paginators: they send on the
   * client themselves, so a page would bypass this retry layer and its counts.
   */
  private async allPages<Page extends { NextToken?: string | undefined }, Item>(
    operation: string,
    send: (nextToken: string | undefined) => Promise<Page>,
    itemsOf: (page: Page) => Item[] | undefined,
  ): Promise<Item[]> {
    const items: Item[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.call(operation, () => send(nextToken));
      items.push(...(itemsOf(page) ?? []));
      nextToken = page.NextToken;
    } while (nextToken !== undefined);
    return items;
  }

  private call<T>(operation: string, send: () => Promise<T>): Promise<T> {
    return callRoute53(this.options, operation, send);
  }
}

/**
 * One Route 53 operation through the one retry layer: every attempt counted
 * (`Route53Calls`, retries also `Route53Retries`), transient failures retried by `retry`.
 * The health-check gateway (static failover) calls Route 53 through it too.
 */
export function callRoute53<T>(
  options: Route53GatewayOptions,
  operation: string,
  send: () => Promise<T>,
): Promise<T> {
  const metrics = options.metrics;
  return retrying(
    options.retry ?? ROUTE53_RETRY,
    {
      isRetryable: isTransientAwsError,
      onRetry: () => metrics?.count(MetricName.route53Retries, 1, { [MetricDimension.operation]: operation }),
    },
    async () => {
      metrics?.count(MetricName.route53Calls, 1, { [MetricDimension.operation]: operation });
      return send();
    },
  );
}

function recordSetsOf(page: ListResourceRecordSetsCommandOutput): ResourceRecordSet[] {
  return required(page.ResourceRecordSets, 'ListResourceRecordSets.ResourceRecordSets');
}

/** The record types the evaluator writes; the zone's others (NS, SOA, TXT…) are not ours. */
function isRecordType(set: ResourceRecordSet): boolean {
  return ['A', 'AAAA', 'CNAME'].includes(required(set.Type, 'ResourceRecordSet.Type'));
}
