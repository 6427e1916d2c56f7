/**
 * The certificate an HTTPS endpoint presented, as a check keeps it: its expiry and short
 * names of its subject and issuer (the CN, else the O, else the first part), for `tm status`
 * and the expiry warning. Certificates are not validated (a probe trusts none): this only
 * describes what was presented. Pure: the prober passes the fields of Node's X509Certificate.
 */

export interface PeerCertificate {
  /** notAfter, epoch ms. */
  readonly notAfter: number;
  /** Short name of the subject, e.g. `shop.example.com`; at most MAX_CERTIFICATE_NAME_LENGTH characters. */
  readonly subject: string;
  /** Short name of the issuer, e.g. `R11` or `Amazon RSA 2048 M02`. */
  readonly issuer: string;
}

/** A name is shown, stored in the heartbeat and put in events: long ones are cut to this. */
export const MAX_CERTIFICATE_NAME_LENGTH = 64;

/** From X509Certificate's `validTo`, `subject` and `issuer`; undefined when validTo does not parse. */
export function peerCertificateOf(x509: {
  readonly validTo: string;
  readonly subject: string;
  readonly issuer: string;
}): PeerCertificate | undefined {
  const notAfter = Date.parse(x509.validTo);
  if (!Number.isFinite(notAfter)) return undefined;
  return { notAfter, subject: shortName(x509.subject), issuer: shortName(x509.issuer) };
}

/**
 * `CN=shop.example.com\nO=Shop` → `shop.example.com`: the common name, else the organization,
 * else the first attribute's value; control characters dropped, cut to the length limit.
 */
export function shortName(distinguishedName: string): string {
  const attributes = distinguishedName.split('\n').map((line) => {
    const equals = line.indexOf('=');
    return { type: line.slice(0, equals).trim(), value: line.slice(equals + 1) };
  });
  const chosen =
    attributes.find((a) => a.type === 'CN') ?? attributes.find((a) => a.type === 'O') ?? attributes[0];
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = (chosen?.value ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.length > MAX_CERTIFICATE_NAME_LENGTH
    ? `${clean.slice(0, MAX_CERTIFICATE_NAME_LENGTH - 1)}…`
    : clean;
}
