/** The certificate a check keeps: expiry and short, bounded subject and issuer names. */
import { describe, expect, it } from 'vitest';
import { MAX_CERTIFICATE_NAME_LENGTH, peerCertificateOf, shortName } from '../../shared/probe/certificate.js';

describe('shortName', () => {
  it.each([
    ['CN=shop.example.com\nO=Shop', 'shop.example.com'],
    ['C=US\nO=Amazon\nCN=Amazon RSA 2048 M02', 'Amazon RSA 2048 M02'],
    ['C=US\nO=Internet Security Research Group', 'Internet Security Research Group'],
    ['C=US\nST=WA', 'US'],
    ['', ''],
    ['CN=evil\u0007\u001b[31mname', 'evil[31mname'],
  ])('%j → %j', (dn, short) => {
    expect(shortName(dn)).toBe(short);
  });

  it('cuts a long name to the limit', () => {
    const name = shortName(`CN=${'a'.repeat(500)}`);
    expect(name).toHaveLength(MAX_CERTIFICATE_NAME_LENGTH);
    expect(name.endsWith('…')).toBe(true);
  });
});

describe('peerCertificateOf', () => {
  it('reads notAfter from validTo', () => {
    expect(
      peerCertificateOf({ validTo: 'Dec  1 18:21:49 2027 GMT', subject: 'CN=a', issuer: 'CN=b' }),
    ).toEqual({ notAfter: Date.UTC(2027, 11, 1, 18, 21, 49), subject: 'a', issuer: 'b' });
  });

  it('is undefined when validTo does not parse', () => {
    expect(peerCertificateOf({ validTo: 'never', subject: '', issuer: '' })).toBeUndefined();
  });
});
