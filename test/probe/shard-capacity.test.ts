/**
 * A shard carries what its CPU can start on time: the tick weighs each request by its
 * protocol's CPU per probe (HTTPS ≫ HTTP > TCP), counted in the rounds it is due in, against
 * the vCPU share of the shards' memory size — not by the request count alone.
 */
import { describe, expect, it } from 'vitest';
import { tickMessages } from '../support/tick-messages.js';
import {
  DEFAULT_PROBE_MEMORY_MB,
  LAMBDA_MB_PER_VCPU,
  PROBE_CPU_MS,
  roundCpuBudgetMs,
  roundCpuMs,
  planLoadOf,
  shardCountForLoad,
  vcpusOf,
} from '../../shared/probe/shard-capacity.js';
import type { ProbeProtocol } from '../../shared/profile/types.js';
import { external, monitor, profile } from './worker.fixtures.js';

const MINUTE = Date.UTC(2025, 0, 1, 12, 0, 0);

/** One profile of `count` endpoints checked over `protocol` every `interval` s. */
function fleet(protocol: ProbeProtocol, count: number, interval: 10 | 30 = 10) {
  return profile(`fleet-${protocol}`, {
    monitorConfig: monitor({
      protocol,
      port: protocol === 'HTTPS' ? 443 : 80,
      intervalInSeconds: interval,
      timeoutInSeconds: 9,
    }),
    endpoints: Array.from({ length: count }, (_, i) => external(`e${i}`, `h${i}.example.net`)),
  });
}

describe('the tick sizes shards by CPU, not by request count alone', () => {
  it.each([
    { protocol: 'HTTPS' as const, memory: DEFAULT_PROBE_MEMORY_MB, shards: 2 },
    { protocol: 'HTTPS' as const, memory: 512, shards: 7 },
    { protocol: 'HTTPS' as const, memory: 2 * LAMBDA_MB_PER_VCPU, shards: 2 },
    { protocol: 'HTTP' as const, memory: DEFAULT_PROBE_MEMORY_MB, shards: 1 },
    { protocol: 'HTTP' as const, memory: 512, shards: 2 },
    { protocol: 'TCP' as const, memory: 512, shards: 1 },
  ])(
    '2,000 $protocol requests every 10 s at $memory MB: $shards shard(s)',
    ({ protocol, memory, shards }) => {
      const result = tickMessages([fleet(protocol, 2_000)], 'us-east-1', ['us-east-1'], MINUTE, 50, memory);
      expect(result.shards).toBe(shards);
      // Each shard's share of a round fits its CPU budget.
      expect((2_000 * PROBE_CPU_MS[protocol]) / result.shards).toBeLessThanOrEqual(roundCpuBudgetMs(memory));
    },
  );

  it.each([
    {
      name: 'a 10 s round: half of its 0.5 s of room plus the 1 s lateness target',
      period: 10_000,
      budget: 750,
    },
    {
      name: 'a 30 s round (30 s requests only): half of its 19.5 s of room plus 1 s',
      period: 30_000,
      budget: 10_250,
    },
  ])('the CPU a full-vCPU shard may spend on $name', ({ period, budget }) => {
    expect(roundCpuBudgetMs(LAMBDA_MB_PER_VCPU, period)).toBe(budget);
  });

  it('30 s requests in 30 s rounds: a shard carries the CPU its longer room can start on time, so 2,000 HTTPS requests need one shard, not two', () => {
    const result = tickMessages([fleet('HTTPS', 2_000, 30)], 'us-east-1', ['us-east-1'], MINUTE, 50);
    expect(result.roundPeriodMs).toBe(30_000);
    expect(result.shards).toBe(1);
  });

  it('a 30 s request in 10 s rounds costs a third: it is due in one round of three', () => {
    const probes = [
      { protocol: 'HTTPS' as const, intervalMs: 30_000 },
      { protocol: 'HTTPS' as const, intervalMs: 10_000 },
    ];
    expect(roundCpuMs(probes, 10_000)).toBeCloseTo(PROBE_CPU_MS.HTTPS * (1 + 1 / 3));
    expect(roundCpuMs(probes, 30_000)).toBeCloseTo(PROBE_CPU_MS.HTTPS * 2);
  });

  it('never fewer shards than the request count needs, never more than the cap', () => {
    const tcp = Array.from({ length: 4_001 }, () => ({ protocol: 'TCP' as const, intervalMs: 10_000 }));
    expect(shardCountForLoad(planLoadOf(tcp, 10_000), 50, 4 * LAMBDA_MB_PER_VCPU)).toBe(3);
    const https = Array.from({ length: 100_000 }, () => ({ protocol: 'HTTPS' as const, intervalMs: 10_000 }));
    expect(shardCountForLoad(planLoadOf(https, 10_000), 50)).toBe(50);
  });

  it('the vCPUs of a memory size: a share below 1,769 MB, one above (a shard probes on one thread)', () => {
    expect(vcpusOf(LAMBDA_MB_PER_VCPU / 2)).toBeCloseTo(0.5);
    expect(vcpusOf(LAMBDA_MB_PER_VCPU)).toBe(1);
    expect(vcpusOf(2.5 * LAMBDA_MB_PER_VCPU)).toBe(1);
    expect(roundCpuBudgetMs(LAMBDA_MB_PER_VCPU / 2)).toBeCloseTo(375);
    expect(() => vcpusOf(0)).toThrow(/memoryMb must be > 0, got 0/);
  });
});
