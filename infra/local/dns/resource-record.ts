/** The DNS records the answer logic produces (`respond.ts` encodes them). */
import type { SoaData } from 'dns-packet';

export type ResourceRecord =
  | {
      readonly name: string;
      readonly type: 'A' | 'AAAA' | 'CNAME';
      readonly ttl: number;
      readonly data: string;
    }
  | { readonly name: string; readonly type: 'SOA'; readonly ttl: number; readonly data: SoaData };

/** Lower case, no trailing dot — the form `RecordSet` names use. */
export const normalizeName = (name: string): string => name.trim().replace(/\.+$/, '').toLowerCase();
