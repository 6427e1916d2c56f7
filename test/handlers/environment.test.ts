/**
 * The handlers' settings from the environment the stacks set: a missing or unusable value
 * stops the function with an error naming the variable and the value, never a default that
 * hides the mistake; blank values count as unset.
 */
import { describe, expect, it, vi } from 'vitest';
import { containerDeps, depsFromEnvironment } from '../../functions/evaluator/environment.js';
import {
  homeRegionFromEnv,
  positiveIntegerFromEnv,
  probeRegionFromEnv,
  probeRegionsFromEnv,
  probeShardFromEnv,
  tableNameFromEnv,
} from '../../functions/shared/env.js';
import {
  InvalidEnvironmentVariableError,
  MissingEnvironmentVariableError,
} from '../../functions/shared/errors.js';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';

describe('handler settings from the environment', () => {
  it('TABLE_NAME is required; a blank one is missing', () => {
    expect(tableNameFromEnv({ TABLE_NAME: ' tm-table ' })).toBe('tm-table');
    expect(() => tableNameFromEnv({ TABLE_NAME: '  ' })).toThrow(
      new MissingEnvironmentVariableError(Env.tableName, 'the traffic-manager table name'),
    );
    expect(() => tableNameFromEnv({})).toThrow(
      'environment variable TABLE_NAME (the traffic-manager table name) is required but not set',
    );
  });

  it('the probe region is PROBE_REGION, else AWS_REGION, else an error naming both', () => {
    expect(probeRegionFromEnv({ PROBE_REGION: 'eu-west-1', AWS_REGION: 'us-east-1' })).toBe('eu-west-1');
    expect(probeRegionFromEnv({ PROBE_REGION: ' ', AWS_REGION: 'us-east-1' })).toBe('us-east-1');
    const error = (() => {
      try {
        probeRegionFromEnv({});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MissingEnvironmentVariableError);
    expect((error as Error).message).toBe(
      'environment variable PROBE_REGION (the probe region name; or AWS_REGION) is required but not set',
    );
  });

  it('the home region is TABLE_REGION, else AWS_REGION, else unknown', () => {
    expect(homeRegionFromEnv({ TABLE_REGION: 'us-east-1', AWS_REGION: 'eu-west-1' })).toBe('us-east-1');
    expect(homeRegionFromEnv({ TABLE_REGION: '', AWS_REGION: 'eu-west-1' })).toBe('eu-west-1');
    expect(homeRegionFromEnv({})).toBeUndefined();
  });

  it('PROBE_REGIONS is a comma list; blanks and empty entries are dropped', () => {
    expect(probeRegionsFromEnv({ PROBE_REGIONS: ' us-east-1, ,eu-west-1,' })).toEqual([
      'us-east-1',
      'eu-west-1',
    ]);
    expect(probeRegionsFromEnv({})).toEqual([]);
  });

  it('a positive-integer setting takes its default when unset and refuses anything else, naming the value', () => {
    const v = Env.probeConcurrency;
    expect(positiveIntegerFromEnv(v, 64, {})).toBe(64);
    expect(positiveIntegerFromEnv(v, 64, { [v]: ' ' })).toBe(64);
    expect(positiveIntegerFromEnv(v, 64, { [v]: '200' })).toBe(200);
    for (const raw of ['0', '-3', '2.5', 'ten']) {
      expect(() => positiveIntegerFromEnv(v, 64, { [v]: raw })).toThrow(
        new InvalidEnvironmentVariableError(v, 'must be a positive integer', raw),
      );
    }
    expect(() => positiveIntegerFromEnv(v, 64, { [v]: '0' })).toThrow(
      'environment variable PROBE_CONCURRENCY: must be a positive integer, got "0"',
    );
  });

  it('PROBE_SHARD is 0 when unset and an integer ≥ 0 otherwise', () => {
    expect(probeShardFromEnv({})).toBe(0);
    expect(probeShardFromEnv({ PROBE_SHARD: '0' })).toBe(0);
    expect(probeShardFromEnv({ PROBE_SHARD: '7' })).toBe(7);
    for (const raw of ['-1', '1.5', 'one']) {
      expect(() => probeShardFromEnv({ PROBE_SHARD: raw })).toThrow(
        `environment variable PROBE_SHARD: must be an integer ≥ 0, got "${raw}"`,
      );
    }
  });
});

describe('the evaluator’s dependencies from the environment', () => {
  it('each call builds from the environment it is given; the Lambda container keeps its first set', () => {
    expect(depsFromEnvironment({ TABLE_NAME: 'tm-a' }).store).toBeDefined();
    // A second caller with another environment is answered for that one, not given the first's.
    expect(() => depsFromEnvironment({})).toThrow(MissingEnvironmentVariableError);
    vi.stubEnv('TABLE_NAME', 'tm-container');
    try {
      expect(containerDeps()).toBe(containerDeps());
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
