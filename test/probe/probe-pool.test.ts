/**
 * Integration: the probe worker on every core. Two probe threads send the region's
 * requests (HTTP, HTTPS, TCP; healthy and failing) to real loopback servers; the worker
 * keeps the rule states and writes the verdicts to DynamoDB Local exactly as it does
 * with the in-process prober.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import {
  probeThreadsFor,
  REPORT_GRACE_MS,
  serveProbes,
  startProbePool,
  type ProbePool,
} from '../../functions/probe/probe-pool.js';
import { probe } from '../../functions/probe/probers/registry.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import type { PeerCertificate } from '../../shared/probe/certificate.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import { readReports } from '../../shared/probe/thread-wire.js';
import { threadOf } from '../../shared/probe/shards.js';
import type { PlannedProbe, Prober } from '../../shared/probe/target.js';
import { KeyPrefix, type VerdictItem } from '../../shared/state/items.js';
import { freshTable } from '../support/dynamodb.js';
import {
  closedPort,
  startBlackhole,
  startHttpServer,
  startHttpsServer,
  startTcpServer,
  type Blackhole,
  type TestHttpServer,
  type TestTcpServer,
} from '../support/servers.js';
import { planned } from './worker.fixtures.js';

const REGION = 'eu-central-1';
const ROUND = 10_000;
const quiet = { warn: () => undefined };

let http: TestHttpServer;
let https: TestHttpServer;
let tcp: TestTcpServer;
let blackhole: Blackhole;
let refused: number;
let pool: ProbePool;

beforeAll(async () => {
  [http, https, tcp, blackhole, refused] = await Promise.all([
    startHttpServer(),
    startHttpsServer(),
    startTcpServer(),
    startBlackhole(),
    closedPort(),
  ]);
  pool = startProbePool({ threads: 2 });
});

afterAll(async () => {
  await pool.close();
  await Promise.all([http.close(), https.close(), tcp.close(), blackhole.close()]);
});

/** A real probe thread wrapped by test/probe/misbehaving-probe-thread.mjs. */
function threadWith(fault: 'junk' | 'truncate' | 'silent' | 'die'): Worker {
  return new Worker(new URL('./misbehaving-probe-thread.mjs', import.meta.url), {
    workerData: { fault, module: new URL('../../functions/probe/probe-pool.ts', import.meta.url).href },
  });
}

/** 60 requests: healthy HTTP/HTTPS/TCP, HTTP 500s and refused TCP ports, one per 6. */
function plan(): PlannedProbe[] {
  return Array.from({ length: 60 }, (_, i) => {
    const kind = i % 6;
    const key = `k${i}`;
    // Timeouts far above a loaded machine's worst answer time: only the 500s and refused ports fail.
    const common = { toleratedNumberOfFailures: 1, timeoutMs: 6_000, offsetMs: i * 100 };
    if (kind === 0)
      return planned(key, {
        ...common,
        protocol: 'HTTP',
        host: '127.0.0.1',
        port: http.port,
        path: `/ok/${i}`,
      });
    if (kind === 1)
      return planned(key, {
        ...common,
        protocol: 'HTTPS',
        host: '127.0.0.1',
        port: https.port,
        path: `/ok/${i}`,
      });
    if (kind === 2)
      return planned(key, { ...common, protocol: 'TCP', host: '127.0.0.1', port: tcp.port, path: undefined });
    if (kind === 3)
      return planned(key, {
        ...common,
        protocol: 'HTTP',
        host: '127.0.0.1',
        port: http.port,
        path: '/status/500',
      });
    if (kind === 4)
      return planned(key, { ...common, protocol: 'TCP', host: '127.0.0.1', port: refused, path: undefined });
    return planned(key, {
      ...common,
      protocol: 'HTTPS',
      host: 'localhost',
      port: https.port,
      path: `/ok/${i}`,
    });
  });
}

async function verdictsAfterTwoRounds(prober: Prober): Promise<Map<string, string>> {
  const { dynamodb, tableName } = await freshTable('tm-pool');
  const worker = createProbeWorker({
    region: REGION,
    store: new DynamoDbProbeStateStore(dynamodb, tableName),
    prober,
    clock: { now: () => Date.now() },
    sleep: async () => undefined,
    logger: quiet,
  });
  worker.setTargets(plan());
  const dueAt = Math.floor(Date.now() / ROUND) * ROUND;
  const reports = [await worker.runRound(dueAt, ROUND), await worker.runRound(dueAt + ROUND, ROUND)];
  expect(reports.map((r) => r.probed)).toEqual([60, 60]);
  const items = (await dynamodb.send(new ScanCommand({ TableName: tableName }))).Items ?? [];
  return new Map(
    items
      .map((raw) => unmarshall(raw) as VerdictItem & { pk: string })
      .filter((item) => item.pk.startsWith(KeyPrefix.verdict))
      .map((item) => [item.targetKey, item.verdict]),
  );
}

describe('probing on every core', () => {
  it('two threads probe the region and the verdicts are those of the in-process prober', async () => {
    // Prepare
    const before = pool.answered().reduce((a, b) => a + b, 0);
    // Act
    const threaded = await verdictsAfterTwoRounds(pool.prober);
    const inProcess = await verdictsAfterTwoRounds(probe);
    // Assess: every request went to its own thread by key, both threads worked, same verdicts
    const answered = pool.answered();
    expect(answered.reduce((a, b) => a + b, 0) - before).toBe(120);
    const expectedPerThread = [0, 1].map((t) => plan().filter((p) => threadOf(p.key, 2) === t).length * 2);
    expect(expectedPerThread.every((n) => n > 0)).toBe(true);
    expect(threaded.size).toBe(60);
    expect(threaded).toEqual(inProcess);
    expect(
      [...threaded.entries()]
        .filter(([, v]) => v === 'down')
        .map(([k]) => Number(k.slice(1)) % 6)
        .sort(),
    ).toEqual(Array.from({ length: 20 }, (_, i) => (i < 10 ? 3 : 4)));
  });

  it('a probe in flight when the pool closes ends as a failure, promptly', async () => {
    const closing = startProbePool({ threads: 2 });
    const request = planned('bh', {
      protocol: 'TCP',
      host: '127.0.0.1',
      port: blackhole.port,
      path: undefined,
    });
    const started = Date.now();
    const pending = closing.prober(request, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await closing.close();
    const observation = await pending;
    expect(observation).toMatchObject({ answered: false, reason: 'network' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a malformed message from a thread is ignored, never a crash: the probes settle with what the thread observed', async () => {
    // Prepare: threads that post junk (and a report with no observation) before every real batch
    const misbehaving = startProbePool({ threads: 2, spawnThread: () => threadWith('junk') });
    const requests = Array.from({ length: 8 }, (_, i) =>
      planned(`junk-${i}`, { protocol: 'HTTP', host: '127.0.0.1', port: http.port, path: `/ok/${i}` }),
    );
    try {
      // Act
      const observations = await Promise.all(requests.map((request) => misbehaving.prober(request, 6_000)));
      // Assess
      expect(observations).toEqual(
        requests.map(() => expect.objectContaining({ answered: true, statusCode: 200 })),
      );
      expect(misbehaving.answered().reduce((a, b) => a + b, 0)).toBe(8);
    } finally {
      await misbehaving.close();
    }
  });

  it('a thread that dies mid-batch ends every probe in flight as a failure, promptly, and its share is probed on', async () => {
    // Prepare: threads that exit 100 ms after their first batch arrived; black-holed probes are
    // still in flight then (their timeout is 30 s)
    const dying = startProbePool({ threads: 2, spawnThread: () => threadWith('die') });
    const holes = Array.from({ length: 6 }, (_, i) =>
      planned(`die-${i}`, { protocol: 'TCP', host: '127.0.0.1', port: blackhole.port, path: undefined }),
    );
    try {
      // Act
      const started = Date.now();
      const observations = await Promise.all(holes.map((request) => dying.prober(request, 30_000)));
      const elapsed = Date.now() - started;
      // A thread that ended this early is not restarted: its share runs in-process from now on.
      const after = await dying.prober(
        planned('die-after', { protocol: 'HTTP', host: '127.0.0.1', port: http.port, path: '/ok/after' }),
        6_000,
      );
      // Assess
      expect(observations).toEqual(
        holes.map(() =>
          expect.objectContaining({
            answered: false,
            reason: 'network',
            detail: 'the probe thread ended before the probe did',
          }),
        ),
      );
      expect(elapsed).toBeLessThan(20_000);
      expect(after).toMatchObject({ answered: true, statusCode: 200 });
    } finally {
      await dying.close();
    }
  });

  it('a report that is not whole (truncated) is trusted in no part, never a crash: its probes end as failures and the thread probes on', async () => {
    // Prepare: threads that cut the last number off every report batch they post
    const truncating = startProbePool({ threads: 2, spawnThread: () => threadWith('truncate') });
    const requests = Array.from({ length: 6 }, (_, i) =>
      planned(`cut-${i}`, { protocol: 'HTTP', host: '127.0.0.1', port: http.port, path: `/ok/${i}` }),
    );
    const before = http.received.length;
    try {
      // Act: two rounds of the same requests
      const first = await Promise.all(requests.map((request) => truncating.prober(request, 6_000)));
      const second = await Promise.all(requests.map((request) => truncating.prober(request, 6_000)));
      // Assess: every probe was sent and answered by the server, and every one settled as a failure
      expect(http.received.length - before).toBe(12);
      expect([...first, ...second]).toEqual(
        [...requests, ...requests].map(() =>
          expect.objectContaining({
            answered: false,
            reason: 'network',
            detail: 'the probe thread sent a malformed report',
          }),
        ),
      );
      expect(truncating.answered()).toEqual([0, 0]);
    } finally {
      await truncating.close();
    }
  });

  it(`a probe whose report never comes ends as a failure ${REPORT_GRACE_MS} ms after its timeout`, async () => {
    // Prepare: threads that probe and never report
    const silent = startProbePool({ threads: 2, spawnThread: () => threadWith('silent') });
    const request = planned('silent', {
      protocol: 'HTTP',
      host: '127.0.0.1',
      port: http.port,
      path: '/ok/s',
    });
    try {
      // Act
      const started = Date.now();
      const observation = await silent.prober(request, 200);
      const elapsed = Date.now() - started;
      // Assess: not before the grace has passed; the sweep runs each second (slack for a loaded machine)
      expect(observation).toMatchObject({
        answered: false,
        reason: 'network',
        detail: 'the probe thread did not report the probe in time',
      });
      expect(elapsed).toBeGreaterThanOrEqual(200 + REPORT_GRACE_MS);
      expect(elapsed).toBeLessThan(200 + REPORT_GRACE_MS + 10_000);
    } finally {
      await silent.close();
    }
  }, 30_000);

  it('the thread side probes a request sent once and then named by its index, and skips an index it never received', async () => {
    // The thread's end of the channel runs here, in the main thread, where its lines are measured.
    const { port1: thread, port2: lane } = new MessageChannel();
    serveProbes(thread);
    const reports = new Map<number, ProbeObservation>();
    const certificates: PeerCertificate[] = [];
    let arrived = () => undefined as void;
    lane.on('message', (batch: unknown) => {
      readReports(batch, certificates, {
        settle: (id, observation) => reports.set(id, observation),
        malformed: (id) => reports.set(id, { answered: false } as ProbeObservation),
      });
      arrived();
    });
    const answered = (ids: number[]) =>
      new Promise<void>((resolve) => {
        arrived = () => ids.every((id) => reports.has(id)) && resolve();
        arrived();
      });
    const request = planned('pool-k', {
      protocol: 'HTTP',
      host: '127.0.0.1',
      port: http.port,
      path: '/ok/k',
    });
    try {
      let done = answered([0, 1]);
      lane.postMessage({
        orders: new Float64Array([0, 7, 6_000, 1, 7, 6_000, 2, 8, 6_000]),
        requests: [[7, request]],
      });
      // Not an order batch, or a truncated one: ignored.
      lane.postMessage([{ id: 9, key: request.key, timeoutMs: 6_000 }]);
      lane.postMessage({ orders: new Float64Array([9, 7]), requests: [] });
      await done;
      done = answered([3]);
      lane.postMessage({ orders: new Float64Array([3, 7, 6_000]), requests: [] });
      await done;
      expect([...reports.keys()].sort()).toEqual([0, 1, 3]);
      expect([...reports.values()]).toEqual(
        Array.from({ length: 3 }, () => expect.objectContaining({ answered: true, statusCode: 200 })),
      );
    } finally {
      lane.close();
      thread.close();
    }
  });

  it('at 128 MB on Lambda the pool is one thread, in-process: no worker thread is started', async () => {
    const saved = process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE;
    process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE = '128';
    const single = startProbePool();
    if (saved === undefined) delete process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE;
    else process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE = saved;
    const before = http.received.length;

    const observation = await single.prober(
      planned('one', { host: '127.0.0.1', port: http.port, path: '/one' }),
      6_000,
    );

    expect(single).toMatchObject({ threads: 1, prober: probe });
    expect(single.answered()).toEqual([]);
    expect(observation).toMatchObject({ answered: true, statusCode: 200 });
    expect(http.received.slice(before).map((r) => r.url)).toEqual(['/one']);
    await single.close();
  });

  it.each([
    { name: 'a thread that dies at once is not restarted: its lane probes in-process', settled: false },
    { name: 'a thread that dies after its start is replaced by a new one', settled: true },
  ])('$name; the probe it held ends as a failure', async ({ settled }) => {
    // Prepare: a request the thread cannot even read (no headers) throws inside the thread, which dies
    const beforeStart = Date.now();
    const crashing = startProbePool({ threads: 2 });
    const afterStart = Date.now();
    const key = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'].find((k) => threadOf(k, 2) === 0)!;
    const healthy = planned(key, { host: '127.0.0.1', port: http.port, path: '/after' });
    const broken = { ...healthy, headers: undefined } as unknown as PlannedProbe;
    try {
      if (settled) {
        // A thread that has answered, 2 s after its start, counts as started.
        expect(await crashing.prober(healthy, 6_000)).toMatchObject({ answered: true });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2_000 - (Date.now() - afterStart))));
      }
      const answeredBefore = crashing.answered()[0]!;
      // Act
      const lost = await crashing.prober(broken, 6_000);
      const diedWithin = Date.now() - beforeStart;
      const after = await crashing.prober(healthy, 6_000);
      // Assess
      expect(lost).toMatchObject({
        answered: false,
        reason: 'network',
        detail: 'the probe thread ended before the probe did',
      });
      expect(after).toMatchObject({ answered: true, statusCode: 200 });
      // A replacement thread answered it; an in-process probe leaves the lane's count as it was.
      if (settled) expect(crashing.answered()[0]).toBe(answeredBefore + 1);
      else if (diedWithin < 2_000) expect(crashing.answered()[0]).toBe(answeredBefore);
    } finally {
      await crashing.close();
    }
  });

  it.each([
    {
      name: 'Lambda at 1,769 MB: one vCPU of time, one thread (though 2 cores show)',
      env: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1769' },
      cores: 2,
      threads: 1,
    },
    {
      name: 'Lambda at 128 MB: one thread',
      env: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '128' },
      cores: 2,
      threads: 1,
    },
    {
      name: 'Lambda at 5,308 MB: three threads',
      env: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '5308' },
      cores: 3,
      threads: 3,
    },
    {
      name: 'Lambda at 10,240 MB: five whole vCPUs of time on six cores',
      env: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '10240' },
      cores: 6,
      threads: 5,
    },
    { name: 'a machine with 2 cores: two threads', env: {}, cores: 2, threads: 2 },
  ])('$name', ({ env, cores, threads }) => {
    expect(probeThreadsFor(env, cores)).toBe(threads);
  });
});
