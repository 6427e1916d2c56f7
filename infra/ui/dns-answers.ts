/**
 * What a DNS server answers now for a name: A, AAAA and CNAME asked with Node's own
 * resolver (c-ares), a fresh one per look-up so no cached answer is shown.
 */
import { promises as dns } from 'node:dns';

export type RecordLine = {
  readonly type: string;
  readonly values: readonly string[];
  readonly policy?: string;
};

export interface DnsAnswer {
  /** NOERROR (with or without records), NXDOMAIN, or the resolver's error code (e.g. ETIMEOUT, ECONNREFUSED). */
  readonly rcode: string;
  readonly records: readonly RecordLine[];
}

/** Long enough for a loaded machine's local server, short enough to keep the page current. */
const TIMEOUT_MS = 1_000;
const NO_DATA = new Set(['ENODATA', 'ENOTFOUND']);

export async function askDns(server: string, name: string): Promise<DnsAnswer> {
  const resolver = new dns.Resolver({ timeout: TIMEOUT_MS, tries: 1 });
  resolver.setServers([server]);
  type Asked =
    { readonly type: string; readonly values: string[] } | { readonly type: string; readonly code: string };
  const ask = async (type: string, query: () => Promise<string[]>): Promise<Asked> => {
    try {
      return { type, values: await query() };
    } catch (error) {
      return { type, code: (error as NodeJS.ErrnoException).code ?? 'ERROR' };
    }
  };
  const answers = await Promise.all([
    ask('CNAME', () => resolver.resolveCname(name)),
    ask('A', () => resolver.resolve4(name)),
    ask('AAAA', () => resolver.resolve6(name)),
  ]);
  const records = answers.flatMap((a) =>
    'values' in a && a.values.length > 0 ? [{ type: a.type, values: [...a.values].sort() }] : [],
  );
  const failure = answers.find((a) => 'code' in a && !NO_DATA.has(a.code));
  if (records.length === 0 && failure !== undefined && 'code' in failure)
    return { rcode: failure.code, records };
  const nxdomain = answers.every((a) => 'code' in a && a.code === 'ENOTFOUND');
  return { rcode: nxdomain ? 'NXDOMAIN' : 'NOERROR', records };
}
