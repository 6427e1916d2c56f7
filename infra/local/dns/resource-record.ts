/** The DNS records the answer logic produces (wire-independent; `respond.ts` encodes them). */

export interface SoaFields {
  readonly mname: string;
  readonly rname: string;
  readonly serial: number;
  readonly refresh: number;
  readonly retry: number;
  readonly expire: number;
  readonly minimum: number;
}

export type ResourceRecord =
  | {
      readonly name: string;
      readonly type: 'A' | 'AAAA' | 'CNAME';
      readonly ttl: number;
      readonly data: string;
    }
  | { readonly name: string; readonly type: 'SOA'; readonly ttl: number; readonly data: SoaFields };

/** Lower case, no trailing dot — the form `RecordSet` names use. */
export const normalizeName = (name: string): string => name.trim().replace(/\.+$/, '').toLowerCase();
