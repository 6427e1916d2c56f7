/**
 * A stand-in for the one STS call `tm` makes (GetCallerIdentity, AWS query protocol), so
 * the `--table --region` path can be tested end to end with the SDK's endpoint override
 * (`AWS_ENDPOINT_URL_STS`). Like STS it needs a SigV4 signature for `sts` and refuses any
 * other action.
 */
import { startGuardedHttpServer, type GuardedHttpServer } from '../../infra/local/http-guard.js';

const NS = 'https://sts.amazonaws.com/doc/2011-06-15/';

export function startStsStandIn(arn: string): Promise<GuardedHttpServer> {
  const account = /^arn:aws:[a-z]+::(\d{12}):/.exec(arn)?.[1] ?? '123456789012';
  const error = (status: number, code: string, message: string) => ({
    status,
    headers: { 'content-type': 'text/xml' },
    body: `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>0</RequestId></ErrorResponse>`,
  });
  return startGuardedHttpServer({
    caller: { sigv4Service: 'sts' },
    handle: ({ method, body }) => {
      const form = new URLSearchParams(body.toString('utf8'));
      if (method !== 'POST' || form.get('Action') !== 'GetCallerIdentity')
        return error(400, 'InvalidAction', `Could not find operation ${form.get('Action') ?? ''}`);
      return {
        status: 200,
        headers: { 'content-type': 'text/xml' },
        body:
          `<GetCallerIdentityResponse xmlns="${NS}"><GetCallerIdentityResult>` +
          `<Arn>${arn}</Arn><UserId>AIDAEXAMPLE</UserId><Account>${account}</Account>` +
          `</GetCallerIdentityResult><ResponseMetadata><RequestId>0</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
      };
    },
    errorReply: (e) => error(e.status, e.code, e.message),
  });
}
