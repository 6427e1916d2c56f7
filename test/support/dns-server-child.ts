/**
 * The local DNS server alone in its own process, answering from the DNS test zone, so a test
 * can measure its memory from outside. Prints `port N`; on each `mem` line on stdin it runs a
 * full GC (node --expose-gc) and prints `mem <heap used + external bytes> <rss bytes>`: the
 * memory the server holds on to, not garbage waiting for collection. Exits when stdin closes.
 * Argument: the TCP idle timeout in ms (default: the server's default).
 */
import { createInterface } from 'node:readline';
import { startDnsServer } from '../../infra/local/dns/index.js';
import { testZones } from '../local/dns-fixtures.js';

const idle = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
const dns = await startDnsServer({
  zones: testZones(),
  port: 0,
  ...(idle === undefined ? {} : { tcpIdleTimeoutMs: idle }),
});
process.stdout.write(`port ${dns.port}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line !== 'mem') return;
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  process.stdout.write(`mem ${usage.heapUsed + usage.external} ${usage.rss}\n`);
});
lines.on('close', () => void dns.stop().then(() => process.exit(0)));
