/**
 * One DNS message in, one out: decodes the query (dns-packet), finds the client
 * address (EDNS Client Subnet, else the source address), asks `answerQuestion`,
 * and encodes the authoritative response — ECS echoed with its scope, truncated
 * (TC) when it does not fit a UDP reply. No sockets here.
 */
import * as dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, OptAnswer, Packet, PacketOpt } from 'dns-packet';
import type { ZoneReader } from '../zone-reader.js';
import { answerQuestion } from './answer.js';
import { MalformedQueryError } from './errors.js';
import type { ClientLocationTable } from './client-locations.js';
import { ADDRESS_BITS, formatIp, parseIp, truncate, unmapIpv4 } from '../../../shared/ip/addresses.js';
import { normalizeName, type ResourceRecord } from './resource-record.js';

export type Transport = 'udp' | 'tcp';

export interface ResponderContext {
  readonly zones: ZoneReader;
  readonly locations: ClientLocationTable;
  readonly random: () => number;
  /** False until the zones hold what was first published: then every answer is SERVFAIL. */
  readonly ready: () => boolean;
}

const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
/** Classic DNS limit for UDP replies without EDNS. */
const PLAIN_UDP_LIMIT = 512;
/** The EDNS buffer size we advertise and honour at most (DNS flag day 2020). */
const EDNS_UDP_LIMIT = 1232;
const ECS_OPTION_CODE = 8 as const;
const BADVERS_EXTENDED_RCODE = 1;

function headerOnlyResponse(query: Buffer, rcode: number): Buffer | undefined {
  if (query.length < 2) return undefined;
  return dnsPacket.encode({
    id: query.readUInt16BE(0),
    type: 'response',
    flags: rcode,
    questions: [],
    answers: [],
    authorities: [],
    additionals: [],
  });
}

/**
 * The query's EDNS Client Subnet, checked as RFC 7871 §6 asks of a server: a known FAMILY, a
 * SOURCE PREFIX-LENGTH within it, SCOPE PREFIX-LENGTH 0 (queries must send 0), exactly
 * ceil(SOURCE/8) ADDRESS octets, and no ADDRESS bit set beyond SOURCE. Anything else is FORMERR.
 */
function ecsOf(opt: OptAnswer | undefined) {
  const option = opt?.options.find((candidate) => Number(candidate.code) === ECS_OPTION_CODE) as
    (PacketOpt & { data?: Buffer; ip?: string }) | undefined;
  if (!option) return undefined;
  const data = option.data ?? Buffer.alloc(0);
  if (data.length < 4) throw new MalformedQueryError('EDNS Client Subnet option shorter than 4 octets');
  const familyCode = data.readUInt16BE(0);
  const sourcePrefixLength = data.readUInt8(2);
  const scopePrefixLength = data.readUInt8(3);
  const family = familyCode === 1 ? 'ipv4' : familyCode === 2 ? 'ipv6' : undefined;
  if (family === undefined) throw new MalformedQueryError(`unknown ECS family ${familyCode}`);
  if (sourcePrefixLength > ADDRESS_BITS[family])
    throw new MalformedQueryError(`ECS source prefix length ${sourcePrefixLength} too long`);
  if (scopePrefixLength !== 0) throw new MalformedQueryError('ECS scope prefix length must be 0 in a query');
  const octets = data.subarray(4);
  if (octets.length !== Math.ceil(sourcePrefixLength / 8))
    throw new MalformedQueryError(`ECS address of ${octets.length} octets for /${sourcePrefixLength}`);
  const spareBits = octets.length * 8 - sourcePrefixLength;
  const last = octets.at(-1) ?? 0;
  if ((last & ((1 << spareBits) - 1)) !== 0)
    throw new MalformedQueryError(`ECS address bits set beyond /${sourcePrefixLength}`);
  const address = option.ip === undefined ? undefined : parseIp(option.ip);
  if (!address || address.family !== family) throw new MalformedQueryError('bad ECS address');
  return { family: familyCode, sourcePrefixLength, address: truncate(address, sourcePrefixLength) };
}

function toWire(record: ResourceRecord, questionName: string): Answer {
  // Echo the owner name as the client spelled it (DNS names are case-insensitive; some resolvers check 0x20 case).
  const name = normalizeName(record.name) === normalizeName(questionName) ? questionName : record.name;
  return record.type === 'SOA'
    ? { name, type: 'SOA', class: 'IN', ttl: record.ttl, data: { ...record.data } }
    : { name, type: record.type, class: 'IN', ttl: record.ttl, data: record.data };
}

/** The response to one DNS message, or `undefined` when nothing should be sent back; SERVFAIL when answering failed. */
export function respond(
  message: Buffer,
  source: string,
  transport: Transport,
  context: ResponderContext,
): Buffer | undefined {
  try {
    return respondUnguarded(message, source, transport, context);
  } catch {
    return headerOnlyResponse(message, RCODE.SERVFAIL);
  }
}

function respondUnguarded(
  message: Buffer,
  source: string,
  transport: Transport,
  context: ResponderContext,
): Buffer | undefined {
  let query: DecodedPacket;
  try {
    query = dnsPacket.decode(message);
  } catch {
    return headerOnlyResponse(message, RCODE.FORMERR);
  }
  if (query.type === 'response') return undefined;
  const recursionDesired = query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0;
  const questions = query.questions ?? [];
  const optRecords = (query.additionals ?? []).filter((record): record is OptAnswer => record.type === 'OPT');
  const opt = optRecords[0];
  const base = {
    id: query.id ?? 0,
    type: 'response' as const,
    questions,
    answers: [] as Answer[],
    authorities: [] as Answer[],
    additionals: [] as Answer[],
  };
  const optReply = (options: PacketOpt[], extendedRcode = 0): Answer[] =>
    opt
      ? [
          {
            name: '.',
            type: 'OPT',
            udpPayloadSize: EDNS_UDP_LIMIT,
            extendedRcode,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options,
          } as OptAnswer,
        ]
      : [];
  /** An answer with no records: the rcode, and the OPT record when the query had one. */
  const empty = (rcode: number, additionals = optReply([])) =>
    dnsPacket.encode({ ...base, flags: rcode | recursionDesired, additionals });

  if ((query as DecodedPacket & { opcode?: string }).opcode !== 'QUERY') return empty(RCODE.NOTIMP);
  if (questions.length !== 1 || optRecords.length > 1) return empty(RCODE.FORMERR, []);
  if (opt && opt.ednsVersion > 0) return empty(RCODE.NOERROR, optReply([], BADVERS_EXTENDED_RCODE));

  let ecs: ReturnType<typeof ecsOf>;
  try {
    ecs = ecsOf(opt);
  } catch {
    return empty(RCODE.FORMERR);
  }
  const question = questions[0] as NonNullable<(typeof questions)[number]>;
  const questionClass = question.class ?? 'IN';
  if (questionClass !== 'IN' && questionClass !== 'ANY') return empty(RCODE.REFUSED);

  // Nothing published yet: SERVFAIL, which resolvers do not cache as they cache NXDOMAIN.
  if (!context.ready()) return empty(RCODE.SERVFAIL);

  // A socket address may carry an IPv6 zone index (`fe80::1%lo`), which is no part of the address.
  const sourceAddress = unmapIpv4(parseIp(source.replace(/%.*$/, '')) ?? { family: 'ipv4', value: 0n });
  const client = ecs && ecs.sourcePrefixLength > 0 ? ecs.address : sourceAddress;
  const result = answerQuestion(
    { name: question.name, type: question.type },
    client,
    context.zones,
    context.locations,
    context.random,
  );

  const ecsEcho: PacketOpt[] = ecs
    ? [
        {
          code: ECS_OPTION_CODE,
          family: ecs.family,
          sourcePrefixLength: ecs.sourcePrefixLength,
          scopePrefixLength: Math.min(result.ecsScope ?? 0, ADDRESS_BITS[ecs.address.family]),
          ip: formatIp(ecs.address),
        },
      ]
    : [];
  const authoritative = result.rcode === 'REFUSED' ? 0 : dnsPacket.AUTHORITATIVE_ANSWER;
  const response: Packet = {
    ...base,
    flags: authoritative | recursionDesired | RCODE[result.rcode],
    answers: result.answers.map((record) => toWire(record, question.name)),
    authorities: result.authority.map((record) => toWire(record, question.name)),
    additionals: optReply(ecsEcho),
  };
  const encoded = dnsPacket.encode(response);
  const limit =
    transport === 'tcp'
      ? 65_535
      : opt
        ? Math.min(Math.max(opt.udpPayloadSize, PLAIN_UDP_LIMIT), EDNS_UDP_LIMIT)
        : PLAIN_UDP_LIMIT;
  if (encoded.length <= limit) return encoded;
  // Too big for this transport: the header and question with TC set, so the client retries over TCP.
  return dnsPacket.encode({
    ...response,
    flags: (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE,
    answers: [],
    authorities: [],
  });
}
