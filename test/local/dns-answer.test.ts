/** The answer logic on its own (no sockets): the cases that are awkward to reach over the wire. */
import { describe, expect, it } from 'vitest';
import { answerQuestion, DEFAULT_CLIENT_LOCATIONS } from '../../infra/local/dns/index.js';
import { parseIp } from '../../shared/ip/addresses.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { inMemoryZones, seededRandom, testZones } from './dns-fixtures.js';

const loopback = parseIp('127.0.0.1') as NonNullable<ReturnType<typeof parseIp>>;
const germany = parseIp('192.0.2.1') as NonNullable<ReturnType<typeof parseIp>>;

const alias = (name: string, target: string, extra: Partial<RecordSet>): RecordSet => ({
  name,
  type: 'A',
  values: [],
  aliasTarget: { hostedZoneId: 'Z9', dnsName: target, evaluateTargetHealth: true },
  ...extra,
});

const healthZone = inMemoryZones([
  {
    hostedZoneId: 'Z9',
    zoneName: 'health.test',
    records: [
      { name: 'up.health.test', type: 'A', ttl: 30, values: ['10.0.0.1'] },
      { name: 'up-too.health.test', type: 'A', ttl: 30, values: ['10.0.0.2'] },
      { name: 'down.health.test', type: 'AAAA', ttl: 30, values: ['2001:db8::9'] },
      alias('geo.health.test', 'down.health.test', {
        setIdentifier: 'de',
        geoLocation: { countryCode: 'DE' },
      }),
      alias('geo.health.test', 'up.health.test', {
        setIdentifier: 'eu',
        geoLocation: { continentCode: 'EU' },
      }),
      alias('allbad.health.test', 'down.health.test', { setIdentifier: 'a', weight: 1 }),
      alias('allbad.health.test', 'nowhere.health.test', { setIdentifier: 'b', weight: 1 }),
      alias('mixed.health.test', 'down.health.test', { setIdentifier: 'a', weight: 200 }),
      alias('mixed.health.test', 'up-too.health.test', { setIdentifier: 'b', weight: 1 }),
    ],
  },
]);

describe('answerQuestion', () => {
  it.each([
    {
      name: 'ANY: the A and AAAA answers of the name',
      question: 'simple.example.com',
      values: ['192.0.2.1', '192.0.2.2', '2001:db8::1'],
    },
    { name: 'ANY at a CNAME: the CNAME alone', question: 'www.example.com', values: ['web.example.com'] },
  ])('$name', ({ question, values }) => {
    // Act
    const answer = answerQuestion(
      { name: question, type: 'ANY' },
      loopback,
      testZones(),
      DEFAULT_CLIENT_LOCATIONS,
      seededRandom(1),
    );

    // Assess
    expect(answer.rcode).toBe('NOERROR');
    expect(answer.answers.map((record) => record.data)).toEqual(values);
    expect(answer.authority).toEqual([]);
  });

  it.each([
    {
      name: 'geolocation: an unhealthy country alias gives way to the continent record',
      question: 'geo.health.test',
      client: germany,
      values: ['10.0.0.1'],
    },
    {
      name: 'weighted: an unhealthy alias is skipped whatever its weight',
      question: 'mixed.health.test',
      client: loopback,
      values: ['10.0.0.2'],
    },
    {
      name: 'when every record is unhealthy all are candidates again (and answer what they can)',
      question: 'allbad.health.test',
      client: loopback,
      values: [],
    },
  ])('evaluate target health — $name', ({ question, client, values }) => {
    // Act
    const answers = Array.from({ length: 20 }, (_, seed) =>
      answerQuestion(
        { name: question, type: 'A' },
        client,
        healthZone,
        DEFAULT_CLIENT_LOCATIONS,
        seededRandom(seed),
      ),
    );

    // Assess
    for (const answer of answers) {
      expect(answer.rcode).toBe('NOERROR');
      expect(answer.answers.map((record) => record.data)).toEqual(values);
    }
  });

  it('the ECS scope of a default-table answer excludes the more specific subnets near the client', () => {
    // Prepare: 100.64.0.0/10 → BR, with 100.64.1.0/24 → AU inside it.
    const zones = inMemoryZones([
      {
        hostedZoneId: 'Z2',
        zoneName: 'lat.test',
        records: [
          {
            name: 'lat.test',
            type: 'A',
            ttl: 5,
            region: 'sa-east-1',
            setIdentifier: 'sa',
            values: ['10.0.0.1'],
          },
        ],
      },
    ]);

    // Act
    const answer = answerQuestion(
      { name: 'lat.test', type: 'A' },
      parseIp('100.64.0.1') as NonNullable<ReturnType<typeof parseIp>>,
      zones,
      DEFAULT_CLIENT_LOCATIONS,
      seededRandom(1),
    );

    // Assess: 100.64.0.0/24 is the widest network around the client without the AU /24.
    expect(answer.ecsScope).toBe(24);
  });
});
