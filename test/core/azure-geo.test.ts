/**
 * Azure geographic codes → Route 53's: regions Route 53 has no continent for, subdivisions and
 * parts of countries it has no location for, codes it cannot route by, and what Route 53's
 * continents take in of Azure's Middle East.
 */
import { describe, expect, it } from 'vitest';
import { mapGeoCodes } from '../../shared/azure/geo.js';

describe('mapGeoCodes and the Middle East', () => {
  it('without a WORLD endpoint, a continent that takes in unmapped Middle East countries says so', () => {
    const mapped = mapGeoCodes([['GEO-EU'], ['US']], ['europe', 'us']);

    expect(mapped.problems).toEqual([]);
    expect(mapped.mappings).toEqual([['GEO-EU'], ['US']]);
    expect(mapped.notes).toEqual([
      {
        endpoint: 0,
        received: ['GEO-EU'],
        message: expect.stringMatching(
          /^takes in Middle East countries no endpoint maps \(of [A-Z]{2}(, [A-Z]{2})+, those Route 53 counts in its continents\): Azure does not answer users there, Route 53 answers them with this endpoint; map GEO-ME to an endpoint to decide$/,
        ),
      },
    ]);
  });

  it('with GEO-ME mapped, nothing is left to say', () => {
    const mapped = mapGeoCodes([['GEO-EU'], ['GEO-ME']], ['europe', 'middle-east']);
    expect(mapped.notes.map((note) => note.endpoint)).toEqual([1]); // GEO-ME becomes its countries
  });
});

describe('mapGeoCodes: what Route 53 has no location for', () => {
  it('a region that is no Route 53 continent becomes its countries; an endpoint without a list stays without', () => {
    const mapped = mapGeoCodes([['GEO-AP'], undefined], ['pacific', 'none']);
    expect(mapped.problems).toEqual([]);
    expect(mapped.mappings[0]).toEqual(expect.arrayContaining(['AU', 'NZ', 'FJ']));
    expect(mapped.mappings[1]).toBeUndefined();
    expect(mapped.notes).toEqual([
      {
        endpoint: 0,
        received: 'GEO-AP',
        message: `GEO-AP (Australia / Pacific) is not a Route 53 continent: it is its ${mapped.mappings[0]?.length} countries here`,
      },
    ]);
  });

  it('every subdivision of a country on one endpoint: the country, the same places', () => {
    const mapped = mapGeoCodes([['GB-ENG', 'GB-NIR', 'gb-sct', 'GB-WLS']], ['uk']);
    expect(mapped.mappings).toEqual([['GB']]);
    expect(mapped.notes).toEqual([
      {
        endpoint: 0,
        received: ['GB-ENG', 'GB-NIR', 'gb-sct', 'GB-WLS'],
        message: 'are every subdivision of GB, which Route 53 routes as one: GB here (the same places)',
      },
    ]);
  });

  it.each([
    { name: 'some provinces of Canada', codes: ['CA-ON', 'CA-QC'], parts: ['CA-ON', 'CA-QC'], country: 'CA' },
    { name: "Jan Mayen (Azure's XJ), beside its country", codes: ['XJ', 'SJ'], parts: ['XJ'], country: 'SJ' },
  ])(
    'part of a country no other endpoint maps: the whole country, reported ($name)',
    ({ codes, parts, country }) => {
      const mapped = mapGeoCodes([codes, ['US']], ['here', 'us']);
      expect(mapped.problems).toEqual([]);
      expect(mapped.mappings).toEqual([[country], ['US']]);
      expect(mapped.notes).toEqual([
        {
          endpoint: 0,
          received: parts,
          message: `Route 53 has no location for part of ${country}: all of ${country} here (no other endpoint maps any of it), so users in the rest of ${country}, whom Azure answers from the endpoint of a wider region or WORLD (or not at all), get this endpoint`,
        },
      ]);
    },
  );

  it('parts of one country on several endpoints (or the country on another): an error for each part, naming the endpoints', () => {
    const mapped = mapGeoCodes([['CA-ON'], ['CA-QC'], ['CA']], ['a', 'b', 'c']);
    const message =
      '(a subdivision of CA): Route 53 has no location for part of CA, and the endpoints "a", "b", "c" map parts of CA: route all of CA to one endpoint';
    expect(mapped.problems).toEqual([
      { endpoint: 0, code: 'CA-ON', message },
      { endpoint: 1, code: 'CA-QC', message },
    ]);
  });

  it.each(['ZZ', 'CA-XX', 'CA-ON-TORONTO'])('%s, a code Azure does not have, is an error', (code) => {
    const mapped = mapGeoCodes([[code, 'US-CA']], ['here']);
    expect(mapped.mappings).toEqual([['US-CA']]);
    expect(mapped.problems).toEqual([
      {
        endpoint: 0,
        code,
        message:
          "is not a code of Azure's geographic hierarchy (WORLD, GEO-XX regions, countries, their subdivisions) that Route 53 can route by",
      },
    ]);
  });
});

describe('mapGeoCodes: a WORLD endpoint beside a continent that takes in Middle East countries', () => {
  it('maps the Middle East countries no endpoint maps, as Azure answers them from WORLD', () => {
    const mapped = mapGeoCodes([['GEO-EU'], ['WORLD'], ['AE']], ['europe', 'world', 'emirates']);
    const rest = ['BH', 'IL', 'IQ', 'IR', 'JO', 'KW', 'LB', 'OM', 'PS', 'QA', 'SY', 'SA', 'TR', 'YE'];
    expect(mapped.mappings).toEqual([['GEO-EU'], ['WORLD', ...rest], ['AE']]);
    expect(mapped.notes).toEqual([
      {
        endpoint: 1,
        received: 'WORLD',
        message: `also maps ${rest.join(', ')} explicitly here: Route 53 has no Middle East and its continents take these countries in, while in Azure (whose GEO-AS, GEO-EU and GEO-AF leave them out) they get this WORLD endpoint`,
      },
    ]);
  });

  it('without such a continent, WORLD stays as it is', () => {
    const mapped = mapGeoCodes([['US'], ['WORLD']], ['us', 'world']);
    expect(mapped).toEqual({ mappings: [['US'], ['WORLD']], notes: [], problems: [] });
  });
});
