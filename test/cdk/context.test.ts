/**
 * Reading the app's options from CDK context: cdk.json gives JSON values, `-c key=value` on
 * the CDK CLI gives strings.
 */
import { describe, expect, it } from 'vitest';
import { ContextKey, nagEnabled } from '../../infra/cdk/context.js';

const context = (value: unknown) => (key: string) => (key === ContextKey.nag ? value : undefined);

describe('traffic-manager:nag', () => {
  it.each([
    { name: 'not set: cdk-nag runs', value: undefined, enabled: true },
    { name: 'cdk.json false switches it off', value: false, enabled: false },
    { name: '-c traffic-manager:nag=false (a string) switches it off', value: 'false', enabled: false },
    { name: '-c traffic-manager:nag=true keeps it on', value: 'true', enabled: true },
    { name: 'cdk.json true keeps it on', value: true, enabled: true },
  ])('$name', ({ value, enabled }) => {
    expect(nagEnabled(context(value))).toBe(enabled);
  });

  it('fails when the value is neither true nor false, naming the key and the value', () => {
    expect(() => nagEnabled(context('no'))).toThrow(
      'context traffic-manager:nag: must be true or false, got "no"',
    );
  });
});
