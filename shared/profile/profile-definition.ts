/**
 * Builds one profile in the definitions format (what a definitions file holds, before
 * defaults): the demo `tm local` runs and every test that writes definitions start from it.
 */
import type { ProfileInput } from './schema.js';

/** The zone of the built profiles: example.com is reserved for documentation (RFC 2606). */
export const EXAMPLE_ZONE = 'example.com';

export type ProfileDefinitionFields = Partial<Omit<ProfileInput, 'dnsConfig' | 'monitorConfig'>> &
  Pick<ProfileInput, 'name'> & {
    readonly dnsConfig?: Partial<ProfileInput['dnsConfig']>;
    readonly monitorConfig?: ProfileInput['monitorConfig'];
  };

/**
 * A Priority profile named `name` at `<name>.example.com`, monitored over HTTP on port 80
 * at `/health`, with no endpoints. Fields given replace these; `dnsConfig` and
 * `monitorConfig` merge into them field by field.
 */
export function profileDefinition(fields: ProfileDefinitionFields): ProfileInput {
  const { dnsConfig, monitorConfig, ...rest } = fields;
  return {
    trafficRoutingMethod: 'Priority',
    endpoints: [],
    ...rest,
    dnsConfig: { zoneName: EXAMPLE_ZONE, relativeName: fields.name, ...dnsConfig },
    monitorConfig: { protocol: 'HTTP', port: 80, path: '/health', ...monitorConfig },
  };
}
