/**
 * What a set of processes listens on, read from Linux's /proc: the listening TCP sockets and
 * bound UDP sockets of /proc/net/{tcp,tcp6,udp,udp6}, matched to the processes through the
 * socket inodes in /proc/<pid>/fd. Also the process tree under a pid.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ListeningSocket {
  readonly protocol: 'tcp' | 'tcp6' | 'udp' | 'udp6';
  /** `127.0.0.1`, `::1`, `0.0.0.0`, `::`, `::ffff:127.0.0.1` … */
  readonly address: string;
  readonly port: number;
  readonly pid: number;
}

export const procAvailable = (() => {
  try {
    readFileSync('/proc/net/tcp', 'utf8');
    return true;
  } catch {
    return false;
  }
})();

const TCP_LISTEN = '0A';
const UDP_UNCONNECTED = '07';

function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    const bytes = Buffer.from(hex, 'hex').reverse(); // little-endian 32-bit word
    return [...bytes].join('.');
  }
  // IPv6: four little-endian 32-bit words.
  const words = [0, 1, 2, 3].map((i) => Buffer.from(hex.slice(i * 8, i * 8 + 8), 'hex').reverse());
  const bytes = Buffer.concat(words);
  const groups = [...Array(8).keys()].map((i) => bytes.readUInt16BE(i * 2).toString(16));
  const text = groups.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  if (text.startsWith('0:0:0:0:0:ffff:')) return `::ffff:${[...bytes.subarray(12)].join('.')}`;
  return text;
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match?.[1] !== undefined) inodes.add(match[1]);
    } catch {
      // the fd closed meanwhile
    }
  }
  return inodes;
}

/** Listening TCP and bound, unconnected UDP sockets of these processes. */
export function listeningSockets(pids: readonly number[]): ListeningSocket[] {
  const owner = new Map<string, number>();
  for (const pid of pids) for (const inode of socketInodes(pid)) owner.set(inode, pid);
  const sockets: ListeningSocket[] = [];
  for (const protocol of ['tcp', 'tcp6', 'udp', 'udp6'] as const) {
    const lines = readFileSync(`/proc/net/${protocol}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const [local = '', , state = '', , , , , , inode = ''] = fields.slice(1);
      const wanted = protocol.startsWith('tcp') ? TCP_LISTEN : UDP_UNCONNECTED;
      const pid = owner.get(inode);
      if (state !== wanted || pid === undefined) continue;
      const [addressHex = '', portHex = ''] = local.split(':');
      sockets.push({ protocol, address: decodeAddress(addressHex), port: parseInt(portHex, 16), pid });
    }
  }
  return sockets;
}

/** `pid` and every process below it (children, grandchildren …). */
export function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  return tree;
}

/** Whether the process exists (and is not a zombie). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export const isLoopback = (address: string): boolean =>
  address === '::1' || /^127\./.test(address) || /^::ffff:127\./.test(address);
