/**
 * Probing on every core: a Prober that sends each request to one of N worker threads,
 * chosen by a stable hash of the request key (`threadOf`), so one process uses all its
 * vCPUs. The calling worker keeps the schedule, the rule states and the writes; a thread
 * only runs probes (the same probers as in-process) and posts what it observed. Requests
 * and results travel in batches (one message per thread per event-loop turn), and a
 * request is sent to its thread once and then named by its key, so the cost per probe
 * stays close to the single-thread probe's.
 *
 * The thread side lives in this file too: a thread runs this module with
 * `workerData.role === PROBE_THREAD_ROLE`. In the Lambda bundle `import.meta.url` is the
 * bundle itself, which therefore serves as the thread's entry as well.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { FailureReason, type ProbeObservation } from '../../shared/probe/result.js';
import { threadOf } from '../../shared/probe/shards.js';
import type { ProbeRequest, Prober } from '../../shared/probe/target.js';
import { probe } from './probers/registry.js';

export const PROBE_THREAD_ROLE = 'traffic-manager-probe-thread';
import { LAMBDA_MB_PER_VCPU } from '../../shared/probe/shard-capacity.js';

export { LAMBDA_MB_PER_VCPU };

/** Main → thread: probe `key` (with its request the first time) within `timeoutMs`. */
interface ProbeOrder {
  readonly id: number;
  readonly key: string;
  readonly timeoutMs: number;
  readonly request?: ProbeRequest;
}

/** Thread → main. */
interface ProbeReport {
  readonly id: number;
  readonly observation: ProbeObservation;
}

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
  const memory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  const credits = Number.isFinite(memory) && memory > 0 ? Math.floor(memory / LAMBDA_MB_PER_VCPU) : cores;
  return Math.max(1, Math.min(cores, credits));
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

/** One thread, its outgoing batch and the probes waiting for its answers. */
class Lane {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (observation: ProbeObservation) => void>();
  private readonly known = new Map<string, ProbeRequest>();
  private batch: ProbeOrder[] = [];
  private nextId = 0;
  private closed = false;
  answered = 0;

  constructor(private readonly spawnThread: () => Worker) {
    this.worker = this.spawn();
  }

  probe(request: ProbeRequest, timeoutMs: number): Promise<ProbeObservation> {
    if (this.worker === undefined) return probe(request, timeoutMs);
    const id = this.nextId++;
    const sent = this.known.get(request.key) === request;
    if (!sent) this.known.set(request.key, request);
    this.batch.push(
      sent ? { id, key: request.key, timeoutMs } : { id, key: request.key, timeoutMs, request },
    );
    if (this.batch.length === 1) setImmediate(() => this.flush());
    return new Promise((resolve) => this.pending.set(id, resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    if (batch.length > 0) this.worker?.postMessage(batch);
  }

  private spawn(): Worker {
    const startedAt = Date.now();
    const worker = this.spawnThread();
    worker.on('message', (reports: unknown) => {
      // Only reports of probes in flight settle anything: a malformed message is ignored.
      if (!Array.isArray(reports)) return;
      for (const report of reports as Partial<ProbeReport>[]) {
        const resolve = typeof report?.id === 'number' ? this.pending.get(report.id) : undefined;
        if (resolve === undefined || !isObservation(report.observation)) continue;
        this.answered++;
        this.pending.delete(report.id!);
        resolve(report.observation);
      }
    });
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      // Probes in flight on a thread that died end as failures; a new thread takes the lane
      // (or, if the thread could not even start, the lane probes in-process from now on).
      for (const resolve of this.pending.values()) resolve(threadEnded());
      this.pending.clear();
      this.known.clear();
      this.batch = [];
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

function isObservation(value: unknown): value is ProbeObservation {
  return (
    typeof value === 'object' && value !== null && typeof (value as ProbeObservation).answered === 'boolean'
  );
}

function threadEnded(): ProbeObservation {
  return {
    answered: false,
    reason: FailureReason.Network,
    detail: 'the probe thread ended before the probe did',
    startedAt: Date.now(),
    durationMs: 0,
    timeoutMs: 0,
    timings: {},
    latencyMs: undefined,
  };
}

/**
 * The thread side: probes what arrives on `port`, answers in batches (one message per
 * event-loop turn). An order naming a key whose request this thread never received (the
 * thread was replaced meanwhile) is not answered: the lane resolves it when the thread ends.
 */
export function serveProbes(port: MessagePort): void {
  const requests = new Map<string, ProbeRequest>();
  let out: ProbeReport[] = [];
  const send = (): void => {
    const reports = out;
    out = [];
    port.postMessage(reports);
  };
  port.on('message', (orders: unknown) => {
    if (!Array.isArray(orders)) return;
    for (const order of orders as Partial<ProbeOrder>[]) {
      if (
        typeof order?.id !== 'number' ||
        typeof order.key !== 'string' ||
        typeof order.timeoutMs !== 'number'
      )
        continue;
      if (order.request !== undefined) requests.set(order.key, order.request);
      const request = requests.get(order.key);
      if (request === undefined) continue;
      const id = order.id;
      void probe(request, order.timeoutMs).then((observation) => {
        out.push({ id, observation });
        if (out.length === 1) setImmediate(send);
      });
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
