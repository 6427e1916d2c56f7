import { describe, expect, it } from 'vitest';
import type { PeerCertificate } from '../../shared/probe/certificate.js';
import type { ProbeObservation } from '../../shared/probe/result.js';
import {
  MAX_CERTIFICATES,
  ordersOf,
  readReports,
  RECORD_FIELDS,
  ReportWriter,
  type ReportBatch,
} from '../../shared/probe/thread-wire.js';

const certificate: PeerCertificate = {
  notAfter: 1_800_000_000_000,
  subject: 'shop.example.com',
  issuer: 'R11',
};
const tcp: ProbeObservation = {
  answered: true,
  startedAt: 1_700_000_000_123,
  durationMs: 0.4,
  timeoutMs: 5_000,
  timings: { connect: 0.4 },
  latencyMs: 0.4,
};
const https: ProbeObservation = {
  answered: true,
  startedAt: 1_700_000_000_456,
  durationMs: 3.1,
  timeoutMs: 9_000,
  timings: { dns: 0.1, connect: 0.5, tls: 2.2, firstByte: 3, lastByte: 3.1 },
  latencyMs: 2.6,
  statusCode: 200,
  certificate,
};
const failed: ProbeObservation = {
  answered: false,
  reason: 'refused',
  detail: 'connect ECONNREFUSED',
  startedAt: 1_700_000_000_789,
  durationMs: 0.2,
  timeoutMs: 5_000,
  timings: {},
  latencyMs: undefined,
};
const withBody: ProbeObservation = {
  ...https,
  certificate: undefined,
  body: { text: 'ok', bytes: 2, capped: false },
};

function read(message: unknown, certificates: PeerCertificate[] = []) {
  const settled = new Map<number, ProbeObservation>();
  const malformed: number[] = [];
  const read = readReports(message, certificates, {
    settle: (id, observation) => settled.set(id, observation),
    malformed: (id) => malformed.push(id),
  });
  return { read, settled, malformed };
}

describe('probe thread wire', () => {
  it('answered probes travel as rows of numbers, the certificate once; failures and kept bodies whole', () => {
    // Prepare
    const writer = new ReportWriter();
    const observations = [tcp, https, failed, withBody, { ...https, startedAt: https.startedAt + 1 }];
    // Act: more than the writer's first buffer holds
    for (let i = 0; i < 100; i++) writer.add(i, observations[i % observations.length]!);
    const batch = writer.take();
    const certificates: PeerCertificate[] = [];
    const { read: wasRead, settled, malformed } = read(batch, certificates);
    // Assess
    expect(batch.records.length).toBe(60 * RECORD_FIELDS);
    expect(batch.observations.map(([, o]) => o)).toEqual(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? failed : withBody)),
    );
    expect(batch.certificates).toEqual([[0, certificate]]);
    expect(wasRead).toBe(true);
    expect(malformed).toEqual([]);
    expect(certificates).toEqual([certificate]);
    expect([...settled.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const [id, observation] of settled)
      expect(observation).toEqual(observations[id % observations.length]);
    // The writer starts empty; the certificate table is kept.
    expect(writer.size).toBe(0);
    writer.add(100, https);
    expect(writer.take()).toMatchObject({ certificates: [], observations: [] });
  });

  it('a probe without latency or status keeps them absent', () => {
    const writer = new ReportWriter();
    writer.add(1, { ...tcp, latencyMs: undefined });
    const { settled } = read(writer.take());
    expect(settled.get(1)).toEqual({ ...tcp, latencyMs: undefined });
    expect(settled.get(1)).not.toHaveProperty('statusCode');
  });

  it(`beyond ${MAX_CERTIFICATES} distinct certificates an observation travels whole`, () => {
    const writer = new ReportWriter();
    for (let i = 0; i <= MAX_CERTIFICATES; i++)
      writer.add(i, { ...https, certificate: { ...certificate, notAfter: certificate.notAfter + i } });
    const batch = writer.take();
    expect(batch.certificates).toHaveLength(MAX_CERTIFICATES);
    expect(batch.observations.map(([id]) => id)).toEqual([MAX_CERTIFICATES]);
    const { settled, malformed } = read(batch);
    expect(malformed).toEqual([]);
    expect(settled.size).toBe(MAX_CERTIFICATES + 1);
  });

  it('a message that is not a report batch is not read', () => {
    for (const junk of [
      null,
      42,
      'reports',
      [],
      {},
      { records: [1], observations: [], certificates: [] },
      { records: new Float64Array(12), observations: {}, certificates: [] },
      { records: new Float64Array(12), observations: [], certificates: null },
    ])
      expect(read(junk)).toEqual({ read: false, settled: new Map(), malformed: [] });
  });

  const writer = new ReportWriter();
  writer.add(7, https);
  writer.add(8, tcp);
  writer.add(9, failed);
  const whole = writer.take();
  it.each<{ name: string; batch: ReportBatch; certificates?: PeerCertificate[] }>([
    { name: 'a truncated row', batch: { ...whole, records: whole.records.slice(0, -1) } },
    {
      name: 'a certificate index the table lacks',
      batch: { ...whole, certificates: [] },
    },
    {
      name: 'a certificate that is not one',
      batch: { ...whole, certificates: [[0, { notAfter: 'soon' } as unknown as PeerCertificate]] },
    },
    {
      name: 'a certificate index out of range',
      batch: { ...whole, certificates: [[MAX_CERTIFICATES, certificate]] },
    },
    {
      name: 'a required number missing',
      batch: { ...whole, records: whole.records.map((value, i) => (i === RECORD_FIELDS + 2 ? NaN : value)) },
    },
    {
      name: 'an observation that is not one',
      batch: { ...whole, observations: [[9, 'refused' as unknown as ProbeObservation]] },
    },
  ])('a report batch with $name is trusted in no part: every probe it names is malformed', ({ batch }) => {
    const { read: wasRead, settled, malformed } = read(batch);
    expect(wasRead).toBe(true);
    expect(settled.size).toBe(0);
    expect(malformed.sort()).toEqual([7, 8, 9]);
  });

  it('an order batch is three numbers per probe and a list of requests', () => {
    const batch = { orders: new Float64Array([0, 1, 5_000]), requests: [] };
    expect(ordersOf(batch)).toBe(batch);
    for (const junk of [
      null,
      [],
      { orders: [0, 1, 5_000], requests: [] },
      { orders: new Float64Array([0, 1]), requests: [] },
      { orders: new Float64Array(3), requests: {} },
    ])
      expect(ordersOf(junk)).toBeUndefined();
  });
});
