/**
 * The messages between the probe pool's lanes and their probe threads, compact so that a probe
 * on a thread costs little more than one in-process. Pure: no I/O, no clock.
 *
 * - Main → thread (`OrderBatch`): per probe three numbers, its id, the index of its request in
 *   the thread's request table and its timeout; the table's entries travel once, when a request
 *   is new to the lane or changed.
 * - Thread → main (`ReportBatch`): an answered probe without a kept body is a record of
 *   `RECORD_FIELDS` numbers; its certificate (HTTPS) is an index into a table of certificates,
 *   each sent once. Everything else (failures with their reason and detail, kept bodies) travels
 *   whole. So a batch is a few typed arrays and, on failures only, strings.
 *
 * A report that is not whole (a truncated record array, a field that is not a number where one
 * is required, a certificate index the table lacks) is trusted in no part: `readReports` names
 * every probe it can read in it as malformed, and settles nothing else from it.
 */
import type { PeerCertificate } from './certificate.js';
import type { PhaseTimings, ProbeObservation } from './result.js';
import type { ProbeRequest } from './target.js';

/** Main → thread: one batch of probes. */
export interface OrderBatch {
  /** `ORDER_FIELDS` numbers per probe: id, request index, timeout (ms). */
  readonly orders: Float64Array<ArrayBuffer>;
  /** Request table entries the thread lacks or holds an older version of. */
  readonly requests: readonly (readonly [index: number, request: ProbeRequest])[];
}

/** Thread → main: one batch of reports. */
export interface ReportBatch {
  /** `RECORD_FIELDS` numbers per compact report (see `Field`). */
  readonly records: Float64Array<ArrayBuffer>;
  /** Reports that are not compact, whole. */
  readonly observations: readonly (readonly [id: number, observation: ProbeObservation])[];
  /** Certificate table entries new to the main side, sent before any record naming them. */
  readonly certificates: readonly (readonly [index: number, certificate: PeerCertificate])[];
}

export const ORDER_FIELDS = 3;

/** Positions in a compact record. A number that is absent (no status, a phase not reached) is NaN. */
const Field = {
  id: 0,
  /** Index in the certificate table, or -1: none. */
  certificate: 1,
  startedAt: 2,
  durationMs: 3,
  timeoutMs: 4,
  latencyMs: 5,
  statusCode: 6,
  dns: 7,
  connect: 8,
  tls: 9,
  firstByte: 10,
  lastByte: 11,
} as const;
export const RECORD_FIELDS = 12;

const PHASES = [
  'dns',
  'connect',
  'tls',
  'firstByte',
  'lastByte',
] as const satisfies readonly (keyof PhaseTimings)[];

/**
 * Distinct certificates one thread names by index; beyond, observations with a certificate travel
 * whole, so neither table grows without bound.
 */
export const MAX_CERTIFICATES = 4_096;

/** The thread side: collects reports until `take()`. */
export class ReportWriter {
  private records = new Float64Array(RECORD_FIELDS * 64);
  private count = 0;
  private observations: [number, ProbeObservation][] = [];
  private certificates: [number, PeerCertificate][] = [];
  private readonly certificateIndex = new Map<string, number>();

  /** Reports waiting for `take()`. */
  get size(): number {
    return this.count + this.observations.length;
  }

  add(id: number, observation: ProbeObservation): void {
    const certificate = observation.answered ? this.indexOf(observation.certificate) : undefined;
    if (!observation.answered || observation.body !== undefined || certificate === undefined) {
      this.observations.push([id, observation]);
      return;
    }
    if ((this.count + 1) * RECORD_FIELDS > this.records.length) {
      const grown = new Float64Array(this.records.length * 2);
      grown.set(this.records);
      this.records = grown;
    }
    const at = this.count++ * RECORD_FIELDS;
    const records = this.records;
    records[at + Field.id] = id;
    records[at + Field.certificate] = certificate;
    records[at + Field.startedAt] = observation.startedAt;
    records[at + Field.durationMs] = observation.durationMs;
    records[at + Field.timeoutMs] = observation.timeoutMs;
    records[at + Field.latencyMs] = observation.latencyMs ?? NaN;
    records[at + Field.statusCode] = observation.statusCode ?? NaN;
    for (const phase of PHASES) records[at + Field[phase]] = observation.timings[phase] ?? NaN;
  }

  /** The batch so far (its `records` a buffer of its own, transferable); the writer starts empty. */
  take(): ReportBatch {
    const batch = {
      records: this.records.slice(0, this.count * RECORD_FIELDS),
      observations: this.observations,
      certificates: this.certificates,
    };
    this.count = 0;
    this.observations = [];
    this.certificates = [];
    return batch;
  }

  /** -1 without a certificate, its table index, or undefined when the table is full. */
  private indexOf(certificate: PeerCertificate | undefined): number | undefined {
    if (certificate === undefined) return -1;
    const key = `${certificate.notAfter}\n${certificate.subject}\n${certificate.issuer}`;
    let index = this.certificateIndex.get(key);
    if (index === undefined) {
      if (this.certificateIndex.size >= MAX_CERTIFICATES) return undefined;
      index = this.certificateIndex.size;
      this.certificateIndex.set(key, index);
      this.certificates.push([index, certificate]);
    }
    return index;
  }
}

export interface ReportReader {
  /** A probe's observation, from a report that is whole. */
  readonly settle: (id: number, observation: ProbeObservation) => void;
  /** A probe named by a report that is not whole. */
  readonly malformed: (id: number) => void;
}

/**
 * Reads one message from a thread: false when it is not a report batch at all (nothing in it
 * can be read, so nothing settles). `certificates` is the lane's certificate table, extended by
 * the entries the batch brings.
 */
export function readReports(
  message: unknown,
  certificates: PeerCertificate[],
  reader: ReportReader,
): boolean {
  if (!isReportBatch(message)) return false;
  const { records, observations } = message;
  const whole =
    records.length % RECORD_FIELDS === 0 &&
    message.certificates.every(
      (entry) =>
        Array.isArray(entry) &&
        Number.isInteger(entry[0]) &&
        entry[0] >= 0 &&
        entry[0] < MAX_CERTIFICATES &&
        isCertificate(entry[1]),
    ) &&
    observations.every((entry) => Array.isArray(entry) && isObservation(entry[1]));
  if (whole) for (const [index, certificate] of message.certificates) certificates[index] = certificate;
  const decoded: ProbeObservation[] = [];
  for (let at = 0; whole && at < records.length; at += RECORD_FIELDS) {
    const observation = decode(records, at, certificates);
    if (observation === undefined) break;
    decoded.push(observation);
  }
  if (!whole || decoded.length * RECORD_FIELDS < records.length) {
    for (let at = 0; at < records.length; at += RECORD_FIELDS) reader.malformed(records[at]!);
    for (const entry of observations) if (Array.isArray(entry)) reader.malformed(entry[0] as number);
    return true;
  }
  for (let i = 0; i < decoded.length; i++) reader.settle(records[i * RECORD_FIELDS]!, decoded[i]!);
  for (const [id, observation] of observations) reader.settle(id, observation);
  return true;
}

function decode(
  records: Float64Array,
  at: number,
  certificates: readonly PeerCertificate[],
): ProbeObservation | undefined {
  const certificateIndex = records[at + Field.certificate]!;
  const certificate = certificateIndex === -1 ? undefined : certificates[certificateIndex];
  const startedAt = records[at + Field.startedAt]!;
  const durationMs = records[at + Field.durationMs]!;
  const timeoutMs = records[at + Field.timeoutMs]!;
  if (
    (certificateIndex !== -1 && certificate === undefined) ||
    !Number.isFinite(startedAt) ||
    !Number.isFinite(durationMs) ||
    !Number.isFinite(timeoutMs)
  )
    return undefined;
  const timings: { -readonly [Phase in keyof PhaseTimings]: number } = {};
  for (const phase of PHASES) {
    const value = records[at + Field[phase]]!;
    if (!Number.isNaN(value)) timings[phase] = value;
  }
  const latencyMs = records[at + Field.latencyMs]!;
  const statusCode = records[at + Field.statusCode]!;
  return {
    answered: true,
    startedAt,
    durationMs,
    timeoutMs,
    timings,
    latencyMs: Number.isNaN(latencyMs) ? undefined : latencyMs,
    ...(Number.isNaN(statusCode) ? {} : { statusCode }),
    ...(certificate === undefined ? {} : { certificate }),
  };
}

function isReportBatch(value: unknown): value is ReportBatch {
  const batch = value as Partial<ReportBatch> | null;
  return (
    typeof batch === 'object' &&
    batch !== null &&
    batch.records instanceof Float64Array &&
    Array.isArray(batch.observations) &&
    Array.isArray(batch.certificates)
  );
}

function isObservation(value: unknown): value is ProbeObservation {
  return (
    typeof value === 'object' && value !== null && typeof (value as ProbeObservation).answered === 'boolean'
  );
}

function isCertificate(value: unknown): value is PeerCertificate {
  const certificate = value as Partial<PeerCertificate> | null;
  return (
    typeof certificate === 'object' &&
    certificate !== null &&
    typeof certificate.notAfter === 'number' &&
    typeof certificate.subject === 'string' &&
    typeof certificate.issuer === 'string'
  );
}

/** The thread side's reading of an order batch: undefined when it is not one. */
export function ordersOf(message: unknown): OrderBatch | undefined {
  const batch = message as Partial<OrderBatch> | null;
  if (
    typeof batch !== 'object' ||
    batch === null ||
    !(batch.orders instanceof Float64Array) ||
    batch.orders.length % ORDER_FIELDS !== 0 ||
    !Array.isArray(batch.requests)
  )
    return undefined;
  return batch as OrderBatch;
}
