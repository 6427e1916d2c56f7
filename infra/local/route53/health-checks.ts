/**
 * The local Route 53's health checks: CreateHealthCheck, GetHealthCheck,
 * ListHealthChecks, UpdateHealthCheck and DeleteHealthCheck with the API's
 * validation, CallerReference idempotency, HealthCheckVersion and the
 * account quota. Only the two kinds that need no endpoint checker are served:
 * CLOUDWATCH_METRIC and CALCULATED. Their status is health-status.ts.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_CreateHealthCheck.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_HealthCheckConfig.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_UpdateHealthCheck.html
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_DeleteHealthCheck.html
 */
import { randomUUID } from 'node:crypto';
import { constraintError, invalidInput, route53Error } from './errors.js';
import { LATENCY_REGIONS } from './field-constraints.js';
import { present } from './present.js';

/** Route 53's default quota of health checks per account. */
const DEFAULT_HEALTH_CHECK_QUOTA = 200;
const MAX_CHILD_HEALTH_CHECKS = 256;
const MAX_LIST_ITEMS = 1000;
const DEFAULT_LIST_ITEMS = 100;

const HEALTH_CHECK_TYPES = [
  'HTTP',
  'HTTPS',
  'HTTP_STR_MATCH',
  'HTTPS_STR_MATCH',
  'TCP',
  'CALCULATED',
  'CLOUDWATCH_METRIC',
  'RECOVERY_CONTROL',
] as const;
/** The kinds this stand-in serves: neither needs Route 53's endpoint checkers. */
const SERVED_HEALTH_CHECK_TYPES = ['CALCULATED', 'CLOUDWATCH_METRIC'] as const;
export type ServedHealthCheckType = (typeof SERVED_HEALTH_CHECK_TYPES)[number];

const INSUFFICIENT_DATA_STATUSES = ['Healthy', 'Unhealthy', 'LastKnownStatus'] as const;
export type InsufficientDataHealthStatus = (typeof INSUFFICIENT_DATA_STATUSES)[number];

export interface AlarmIdentifier {
  readonly region: string;
  readonly name: string;
}

export interface HealthCheckConfig {
  readonly type: ServedHealthCheckType;
  readonly inverted: boolean;
  readonly disabled: boolean;
  /** CLOUDWATCH_METRIC only. */
  readonly alarmIdentifier?: AlarmIdentifier;
  /** CLOUDWATCH_METRIC only. */
  readonly insufficientDataHealthStatus?: InsufficientDataHealthStatus;
  /** CALCULATED only. */
  readonly childHealthChecks?: readonly string[];
  /** CALCULATED only. */
  readonly healthThreshold?: number;
}

export interface HealthCheck {
  readonly id: string;
  readonly callerReference: string;
  readonly version: number;
  readonly config: HealthCheckConfig;
}

/** A HealthCheckConfig as the XML carried it (text), before validation. */
export interface HealthCheckConfigInput {
  readonly type?: string;
  readonly inverted?: string;
  readonly disabled?: string;
  readonly alarmIdentifier?: { readonly region?: string; readonly name?: string };
  readonly insufficientDataHealthStatus?: string;
  readonly childHealthChecks?: readonly string[];
  readonly healthThreshold?: string;
  /** Names of endpoint-only fields that were sent (IPAddress, Port, …). */
  readonly endpointFields: readonly string[];
}

export interface HealthCheckUpdateInput extends Omit<HealthCheckConfigInput, 'type'> {
  readonly version?: string;
}

export class HealthCheckStore {
  private readonly checks = new Map<string, HealthCheck>();
  /** Every CallerReference ever used, deleted checks included (Route 53 refuses to reuse one). */
  private readonly references = new Map<string, string>();

  constructor(private readonly quota = DEFAULT_HEALTH_CHECK_QUOTA) {}

  /** Creates a check; the same CallerReference with the same settings returns the existing one. */
  create(
    callerReference: string | undefined,
    input: HealthCheckConfigInput,
  ): { check: HealthCheck; created: boolean } {
    if (callerReference === undefined || callerReference.length < 1 || callerReference.length > 64)
      throw constraintError('callerReference', callerReference, 'Member must have length between 1 and 64');
    const config = this.parseConfig(input);
    const earlier = this.references.get(callerReference);
    if (earlier !== undefined) {
      const existing = this.checks.get(earlier);
      // Both configs come out of parseConfig, so their members are in the same order.
      if (existing !== undefined && JSON.stringify(existing.config) === JSON.stringify(config))
        return { check: existing, created: false };
      throw route53Error(
        'HealthCheckAlreadyExists',
        `A health check with caller reference ${callerReference} already exists with other settings (or was deleted); use a new CallerReference.`,
      );
    }
    if (this.checks.size >= this.quota)
      throw route53Error(
        'TooManyHealthChecks',
        `This account already has ${this.quota} health checks, the limit (Route 53's default quota; AWS raises it on request).`,
      );
    const check: HealthCheck = { id: randomUUID(), callerReference, version: 1, config };
    this.checks.set(check.id, check);
    this.references.set(callerReference, check.id);
    return { check, created: true };
  }

  get(id: string): HealthCheck {
    const check = this.checks.get(id);
    if (check === undefined)
      throw route53Error('NoSuchHealthCheck', `No health check exists with the ID ${id}.`);
    return check;
  }

  find(id: string): HealthCheck | undefined {
    return this.checks.get(id);
  }

  ids(): string[] {
    return [...this.checks.keys()];
  }

  /** In creation order; `marker` is the id of the first check of the page (the previous page's NextMarker). */
  list(marker: string | undefined, maxItems: number | undefined) {
    const size = Math.min(maxItems ?? DEFAULT_LIST_ITEMS, MAX_LIST_ITEMS);
    const all = [...this.checks.values()];
    const from = marker === undefined ? 0 : all.findIndex((check) => check.id === marker);
    if (from < 0) throw invalidInput(`Invalid Marker: '${marker}' is not the id of a health check`);
    const checks = all.slice(from, from + size);
    const next = all[from + size];
    return {
      checks,
      isTruncated: next !== undefined,
      ...(next === undefined ? {} : { nextMarker: next.id }),
      maxItems: size,
    };
  }

  update(id: string, input: HealthCheckUpdateInput): HealthCheck {
    const current = this.get(id);
    if (input.version !== undefined) {
      const sent = Number(input.version);
      if (!Number.isInteger(sent) || sent < 1)
        throw constraintError(
          'healthCheckVersion',
          input.version,
          'Member must have value greater than or equal to 1',
        );
      if (sent !== current.version)
        throw route53Error(
          'HealthCheckVersionMismatch',
          `The health check ${id} is at version ${current.version}, not ${sent}: get it again and retry the update.`,
        );
    }
    const was = current.config;
    const merged: HealthCheckConfigInput = {
      type: was.type,
      inverted: input.inverted ?? String(was.inverted),
      disabled: input.disabled ?? String(was.disabled),
      endpointFields: input.endpointFields,
      ...present({
        alarmIdentifier: input.alarmIdentifier ?? was.alarmIdentifier,
        insufficientDataHealthStatus: input.insufficientDataHealthStatus ?? was.insufficientDataHealthStatus,
        childHealthChecks: input.childHealthChecks ?? was.childHealthChecks,
        healthThreshold: input.healthThreshold ?? was.healthThreshold?.toString(),
      }),
    };
    const config = this.parseConfig(merged, id);
    const updated: HealthCheck = { ...current, version: current.version + 1, config };
    this.checks.set(id, updated);
    return updated;
  }

  /**
   * Deletes a check. Route 53 does not refuse a check that records or calculated checks still
   * reference (its HealthCheckInUse error "is not in use"); such references then count as healthy
   * here (health-status.ts).
   */
  delete(id: string): void {
    this.get(id);
    this.checks.delete(id);
  }

  private parseConfig(input: HealthCheckConfigInput, self?: string): HealthCheckConfig {
    const type = input.type;
    if (type === undefined) throw constraintError('healthCheckConfig.type', type, 'Member must not be null');
    if (!(HEALTH_CHECK_TYPES as readonly string[]).includes(type))
      throw constraintError(
        'healthCheckConfig.type',
        type,
        `Member must satisfy enum value set: [${HEALTH_CHECK_TYPES.join(', ')}]`,
      );
    if (!(SERVED_HEALTH_CHECK_TYPES as readonly string[]).includes(type))
      throw invalidInput(
        `Invalid request: the local Route 53 serves CLOUDWATCH_METRIC and CALCULATED health checks only; it runs no endpoint health checkers, so type ${type} is refused`,
      );
    const inverted = booleanField('inverted', input.inverted);
    const disabled = booleanField('disabled', input.disabled);
    if (input.endpointFields.length > 0)
      throw invalidInput(
        `Invalid request: ${input.endpointFields.join(', ')} apply to endpoint health checks, not to a ${type} health check`,
      );
    return type === 'CLOUDWATCH_METRIC'
      ? { type, inverted, disabled, ...this.alarmFields(input) }
      : { type: 'CALCULATED', inverted, disabled, ...this.calculatedFields(input, self) };
  }

  private alarmFields(
    input: HealthCheckConfigInput,
  ): Pick<HealthCheckConfig, 'alarmIdentifier' | 'insufficientDataHealthStatus'> {
    if (input.childHealthChecks !== undefined || input.healthThreshold !== undefined)
      throw invalidInput(
        'Invalid request: ChildHealthChecks and HealthThreshold apply to CALCULATED health checks only',
      );
    const alarm = input.alarmIdentifier;
    if (alarm === undefined)
      throw invalidInput(
        'Invalid request: a CLOUDWATCH_METRIC health check needs an AlarmIdentifier (Region and Name)',
      );
    if (alarm.region === undefined || !LATENCY_REGIONS.includes(alarm.region))
      throw constraintError(
        'healthCheckConfig.alarmIdentifier.region',
        alarm.region,
        'Member must be an AWS region where CloudWatch runs',
      );
    if (alarm.name === undefined || alarm.name.length < 1 || alarm.name.length > 256)
      throw constraintError(
        'healthCheckConfig.alarmIdentifier.name',
        alarm.name,
        'Member must have length between 1 and 256',
      );
    const status = input.insufficientDataHealthStatus;
    if (status !== undefined && !(INSUFFICIENT_DATA_STATUSES as readonly string[]).includes(status))
      throw constraintError(
        'healthCheckConfig.insufficientDataHealthStatus',
        status,
        `Member must satisfy enum value set: [${INSUFFICIENT_DATA_STATUSES.join(', ')}]`,
      );
    return {
      alarmIdentifier: { region: alarm.region, name: alarm.name },
      ...(status === undefined
        ? {}
        : { insufficientDataHealthStatus: status as InsufficientDataHealthStatus }),
    };
  }

  private calculatedFields(
    input: HealthCheckConfigInput,
    self: string | undefined,
  ): Pick<HealthCheckConfig, 'childHealthChecks' | 'healthThreshold'> {
    if (input.alarmIdentifier !== undefined || input.insufficientDataHealthStatus !== undefined)
      throw invalidInput(
        'Invalid request: AlarmIdentifier and InsufficientDataHealthStatus apply to CLOUDWATCH_METRIC health checks only',
      );
    const children = input.childHealthChecks ?? [];
    if (children.length > MAX_CHILD_HEALTH_CHECKS)
      throw invalidInput(
        `Value at 'healthCheckConfig.childHealthChecks' failed to satisfy constraint: Member must have length less than or equal to ${MAX_CHILD_HEALTH_CHECKS}, got ${children.length}`,
      );
    const threshold = input.healthThreshold === undefined ? undefined : Number(input.healthThreshold);
    if (threshold === undefined)
      throw invalidInput('Invalid request: a CALCULATED health check needs a HealthThreshold (0–256)');
    if (!Number.isInteger(threshold) || threshold < 0 || threshold > MAX_CHILD_HEALTH_CHECKS)
      throw constraintError(
        'healthCheckConfig.healthThreshold',
        input.healthThreshold,
        `Member must be an integer between 0 and ${MAX_CHILD_HEALTH_CHECKS}`,
      );
    for (const child of children) {
      if (child === self)
        throw invalidInput(`Invalid request: health check ${child} cannot be its own child`);
      const found = this.checks.get(child);
      if (found === undefined)
        throw invalidInput(`Invalid request: child health check ${child} does not exist`);
      if (found.config.type === 'CALCULATED')
        throw invalidInput(
          `Invalid request: child health check ${child} is a CALCULATED health check; the local Route 53 does not nest calculated health checks`,
        );
    }
    if (new Set(children).size !== children.length)
      throw invalidInput('Invalid request: ChildHealthChecks lists a health check more than once');
    return { childHealthChecks: [...children], healthThreshold: threshold };
  }
}

function booleanField(name: string, text: string | undefined): boolean {
  if (text === undefined) return false;
  if (text !== 'true' && text !== 'false')
    throw constraintError(`healthCheckConfig.${name}`, text, 'Member must be a boolean');
  return text === 'true';
}
