/** Azure geographic codes → Route 53's: what Route 53's continents take in of Azure's Middle East. */
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
