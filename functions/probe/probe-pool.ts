/**
 * Probing on every core: a Prober that sends each request to one of N worker threads,
 * chosen by a stable hash of the request key (`threadOf`), so one process uses all its
 * vCPUs. The calling worker keeps the schedule, the rule states and the writes; a thread
 * only runs probes (the same probers as in-process) and posts what it observed. Orders and
 * reports travel in batches (one message per thread per event-loop turn) in the compact form
 * of shared/probe/thread-wire.ts: a request is sent to its thread once and then named by its
 * index, an answer is a row of numbers; so the cost per probe stays close to the in-process
 * probe's. A probe whose report never comes (a thread that stopped answering, a report that
 * was not whole) ends as a failure `REPORT_GRACE_MS` after its timeout.
 *
 * The thread side lives in this file too: a thread runs this module with
 * `workerData.role === PROBE_THREAD_ROLE`. In the Lambda bundle `import.meta.url` is the
 * bundle itself, which therefore serves as the thread's entry as well.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import type { PeerCertificate } from '../../shared/probe/certificate.js';
import { FailureReason, type ProbeObservation } from '../../shared/probe/result.js';
import { LAMBDA_MB_PER_VCPU } from '../../shared/probe/shard-capacity.js';
import { threadOf } from '../../shared/probe/shards.js';
import type { ProbeRequest, Prober } from '../../shared/probe/target.js';
import {
  ORDER_FIELDS,
  ordersOf,
  readReports,
  ReportWriter,
  type OrderBatch,
  type ReportReader,
} from '../../shared/probe/thread-wire.js';
import { probe } from './probers/registry.js';

export const PROBE_THREAD_ROLE = 'traffic-manager-probe-thread';

export { LAMBDA_MB_PER_VCPU };

export interface ProbePool {
  /** Dispatches to the threads (or probes in-process when there is one thread). */
  readonly prober: Prober;
  readonly threads: number;
  /** Probes each thread has answered so far (one entry per thread). */
  answered(): readonly number[];
  /** Ends the threads; probes still in flight resolve as failures. */
  close(): Promise<void>;
}

export interface ProbePoolOptions {
  /** Worker threads; 1 probes in-process. @default probeThreadsFor(process.env) */
  readonly threads?: number;
  /** Starts one probe thread. @default a thread running this module's thread side */
  readonly spawnThread?: () => Worker;
}

/**
 * How many threads to probe on. Lambda: one per whole vCPU of CPU time the memory buys
 * (`AWS_LAMBDA_FUNCTION_MEMORY_SIZE` / 1,769 MB; Lambda shows 2 cores even at 128 MB, but
 * their time is shared by the memory's fraction of one vCPU); elsewhere every core.
 */
export function probeThreadsFor(
  env: Readonly<Record<string, string | undefined>>,
  cores = availableParallelism(),
): number {
  const memory = lambdaMemoryMbOf(env);
  const credits = memory === undefined ? cores : Math.floor(memory / LAMBDA_MB_PER_VCPU);
  return Math.max(1, Math.min(cores, credits));
}

/** The function's memory size (MB) as Lambda sets it (`AWS_LAMBDA_FUNCTION_MEMORY_SIZE`); undefined elsewhere. */
export function lambdaMemoryMbOf(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const memory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  return Number.isFinite(memory) && memory > 0 ? memory : undefined;
}

export function startProbePool(options: ProbePoolOptions = {}): ProbePool {
  const threads = options.threads ?? probeThreadsFor(process.env);
  if (threads <= 1) return { prober: probe, threads: 1, answered: () => [], close: async () => undefined };
  const spawnThread = options.spawnThread ?? threadOfThisModule;
  const lanes = Array.from({ length: threads }, () => new Lane(spawnThread));
  return {
    threads,
    answered: () => lanes.map((lane) => lane.answered),
    prober: (request, timeoutMs) => lanes[threadOf(request.key, threads)]!.probe(request, timeoutMs),
    close: async () => {
      await Promise.all(lanes.map((lane) => lane.close()));
    },
  };
}

/** A thread that dies this soon after it started is not restarted: its probes run in-process. */
const EARLY_EXIT_MS = 2_000;

/**
 * How long after its timeout a probe on a thread may still be reported: a report later than
 * this (or none) ends the probe as a failure. Far above a loaded machine's message latency.
 */
export const REPORT_GRACE_MS = 5_000;

/** A probe waiting for its thread's report. */
interface Waiting {
  readonly resolve: (observation: ProbeObservation) => void;
  readonly deadlineAt: number;
}

/** A request as the lane's thread holds it: at `index` in the thread's request table. */
interface Sent {
  request: ProbeRequest;
  readonly index: number;
}

/** Captures a new promise's resolve without a closure per probe (see `Lane.probe`). */
let captured: ((observation: ProbeObservation) => void) | undefined;
const capture = (resolve: (observation: ProbeObservation) => void): void => {
  captured = resolve;
};

/** One thread, its outgoing batch and the probes waiting for its reports. */
class Lane implements ReportReader {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  /** What the current thread's request table holds, by request key. */
  private readonly sent = new Map<string, Sent>();
  /** The current thread's certificate table (see shared/probe/thread-wire.ts). */
  private readonly certificates: PeerCertificate[] = [];
  private orders = new Float64Array(ORDER_FIELDS * 256);
  private ordered = 0;
  private requests: [number, ProbeRequest][] = [];
  private nextId = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;
  answered = 0;

  constructor(private readonly spawnThread: () => Worker) {
    this.worker = this.spawn();
    this.sweeper = setInterval(() => this.sweep(), 1_000).unref();
  }

  probe(request: ProbeRequest, timeoutMs: number): Promise<ProbeObservation> {
    if (this.worker === undefined) return probe(request, timeoutMs);
    const id = this.nextId++;
    let sent = this.sent.get(request.key);
    if (sent === undefined) {
      sent = { request, index: this.sent.size };
      this.sent.set(request.key, sent);
      this.requests.push([sent.index, request]);
    } else if (sent.request !== request) {
      sent.request = request;
      this.requests.push([sent.index, request]);
    }
    if ((this.ordered + 1) * ORDER_FIELDS > this.orders.length) {
      const grown = new Float64Array(this.orders.length * 2);
      grown.set(this.orders);
      this.orders = grown;
    }
    const at = this.ordered++ * ORDER_FIELDS;
    this.orders[at] = id;
    this.orders[at + 1] = sent.index;
    this.orders[at + 2] = timeoutMs;
    if (this.ordered === 1) setImmediate(this.flush);
    const promise = new Promise(capture);
    this.waiting.set(id, { resolve: captured!, deadlineAt: Date.now() + timeoutMs + REPORT_GRACE_MS });
    return promise;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  readonly settle = (id: number, observation: ProbeObservation): void => {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return;
    this.waiting.delete(id);
    this.answered++;
    waiting.resolve(observation);
  };

  readonly malformed = (id: number): void => this.fail(id, 'the probe thread sent a malformed report');

  private fail(id: number, detail: string): void {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return;
    this.waiting.delete(id);
    waiting.resolve(unreported(detail));
  }

  private readonly flush = (): void => {
    const batch: OrderBatch = {
      orders: this.orders.slice(0, this.ordered * ORDER_FIELDS),
      requests: this.requests,
    };
    this.ordered = 0;
    this.requests = [];
    if (batch.orders.length > 0) this.worker?.postMessage(batch, [batch.orders.buffer]);
  };

  private sweep(): void {
    const now = Date.now();
    for (const [id, waiting] of this.waiting)
      if (waiting.deadlineAt < now) this.fail(id, 'the probe thread did not report the probe in time');
  }

  private spawn(): Worker {
    const startedAt = Date.now();
    const worker = this.spawnThread();
    // Only whole reports of probes in flight settle anything: a malformed message is ignored.
    worker.on('message', (message: unknown) => readReports(message, this.certificates, this));
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      // Probes in flight on a thread that died end as failures; a new thread takes the lane
      // (or, if the thread could not even start, the lane probes in-process from now on).
      for (const id of [...this.waiting.keys()]) this.fail(id, 'the probe thread ended before the probe did');
      this.sent.clear();
      this.certificates.length = 0;
      this.ordered = 0;
      this.requests = [];
      if (this.closed) return;
      this.worker = Date.now() - startedAt < EARLY_EXIT_MS ? undefined : this.spawn();
    });
    worker.unref();
    return worker;
  }
}

/**
 * A thread running this very module. From the bundle (Lambda) that is a plain ES module; from
 * the TypeScript sources (`tm local`, tests) the thread first registers tsx, as the main
 * thread did, then imports this file.
 */
function threadOfThisModule(): Worker {
  const workerData = { role: PROBE_THREAD_ROLE, module: import.meta.url };
  if (!import.meta.url.endsWith('.ts')) return new Worker(fileURLToPath(import.meta.url), { workerData });
  return new Worker(fileURLToPath(new URL('./probe-thread.mjs', import.meta.url)), { workerData });
}

function unreported(detail: string): ProbeObservation {
  return {
    answered: false,
    reason: FailureReason.Network,
    detail,
    startedAt: Date.now(),
    durationMs: 0,
    timeoutMs: 0,
    timings: {},
    latencyMs: undefined,
  };
}

/**
 * The thread side: probes what arrives on `port`, answers in batches (one message per
 * event-loop turn). An order naming a request index this thread never received (the thread
 * was replaced meanwhile) is not answered: the lane ends it when the thread ends.
 */
export function serveProbes(port: Pick<MessagePort, 'on' | 'postMessage'>): void {
  const requests: ProbeRequest[] = [];
  const reports = new ReportWriter();
  const send = (): void => {
    const batch = reports.take();
    port.postMessage(batch, [batch.records.buffer]);
  };
  const report = (id: number, observation: ProbeObservation): void => {
    reports.add(id, observation);
    if (reports.size === 1) setImmediate(send);
  };
  port.on('message', (message: unknown) => {
    const batch = ordersOf(message);
    if (batch === undefined) return;
    for (const [index, request] of batch.requests) if (Number.isInteger(index)) requests[index] = request;
    const { orders } = batch;
    for (let at = 0; at < orders.length; at += ORDER_FIELDS) {
      const id = orders[at]!;
      const request = requests[orders[at + 1]!];
      if (request === undefined) continue;
      void probe(request, orders[at + 2]!).then((observation) => report(id, observation));
    }
  });
}

/* v8 ignore next 5 -- only taken inside a probe thread, which the coverage collector does not see */
if (
  !isMainThread &&
  parentPort !== null &&
  (workerData as { role?: string } | null)?.role === PROBE_THREAD_ROLE
)
  serveProbes(parentPort);
