/**
 * Where a process's CPU went, from a V8 CPU profile (`node --cpu-prof`): each sample goes to the
 * nearest frame on its stack that belongs to a part of ours (the worker's round, the judge, the
 * rule and heartbeat bookkeeping, the limiter) or to the prober (our probers,
 * undici); a sample with none of them on its stack goes to what its leaf is (socket and stream
 * internals, timers, promise jobs, GC, native code).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The parts of a probe's CPU, nearest on the stack first. */
const OWN_PARTS: readonly [part: string, matches: (url: string) => boolean][] = [
  ['prober', (url) => url.includes('/functions/probe/probers/') || url.includes('/node_modules/undici/')],
  ['judge', (url) => url.includes('/shared/probe/judge') || url.includes('/shared/probe/body-match')],
  ['rule + heartbeat', (url) => url.includes('/shared/monitor/') || url.includes('/shared/status/')],
  ['schedule', (url) => url.includes('/shared/probe/round-schedule') || url.includes('/shared/probe/shards')],
  ['limiter', (url) => url.includes('/node_modules/p-limit/') || url.includes('/node_modules/yocto-queue/')],
  [
    'worker round',
    (url) => url.includes('/functions/probe/worker') || url.includes('/functions/probe/round-handler'),
  ],
];

function leafPart(frame: ProfileNode['callFrame']): string {
  if (frame.functionName === '(garbage collector)') return 'GC';
  if (frame.functionName === '(program)' || frame.url === '') return 'native / runtime';
  const url = frame.url;
  if (
    /^node:(internal\/)?(net|_http|http|stream|dns|tls|_tls)|internal\/streams|internal\/net|stream_base/.test(
      url,
    )
  )
    return 'sockets (no frame of ours)';
  if (url.includes('internal/timers') || url === 'node:timers') return 'timers (no frame of ours)';
  if (url.includes('task_queues') || url.includes('internal/process/promises'))
    return 'promise jobs (no frame of ours)';
  return `other: ${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/(?=[^/]+\/[^/]+$)/, '')}`;
}

/** CPU ms per part (idle excluded), and the total. */
export function cpuByPart(file: string): {
  readonly total: number;
  readonly parts: ReadonlyMap<string, number>;
} {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partOf = new Map<number, string | undefined>();
  const part = (id: number): string | undefined => {
    if (partOf.has(id)) return partOf.get(id);
    const node = byId.get(id)!;
    const own = OWN_PARTS.find(([, matches]) => matches(node.callFrame.url))?.[0];
    const up = parent.get(id);
    const found = own ?? (up === undefined ? undefined : part(up));
    partOf.set(id, found);
    return found;
  };
  const parts = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const name = part(id) ?? leafPart(node.callFrame);
    parts.set(name, (parts.get(name) ?? 0) + ms);
    total += ms;
  });
  return { total, parts };
}
