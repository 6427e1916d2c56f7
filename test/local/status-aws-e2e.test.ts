/**
 * `tm status` against a deployment (`--table`), its AWS clients configured only by the SDK's
 * standard settings and pointed at the local stack's stand-ins: each endpoint's `healthCheck`
 * is its target check's state as Route 53's data plane publishes it (the `AWS/Route53`
 * `HealthCheckStatus` metric in us-east-1, read with GetMetricStatistics), and follows an
 * endpoint going down; with the home table unreachable (nothing listens where the SDK sends
 * its calls) `tm status` says so and shows the health checks instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetCheckIdsOf } from '../../infra/cli/health-checks.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { staticFailoverTime, VOTE_PERIOD_SECONDS } from '../../shared/monitor/failover-time.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { eventually } from '../support/eventually.js';
import { startSwitchableBackends, type SwitchableBackends } from '../support/loopback-backend.js';
import { profileDefinition } from '../support/profiles.js';
import { tm } from '../support/tm.js';

const SCALE = 0.1;
const PRIMARY = '127.0.0.81';
const SECONDARY = '127.0.0.82';
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const MONITOR = { intervalInSeconds: 10, timeoutInSeconds: 5, toleratedNumberOfFailures: 1 } as const;
const ms = (seconds: number) => seconds * 1000 * SCALE;

interface StatusJson {
  profiles: { profile: string; endpoints: { endpoint: string; healthCheck: string | null }[] }[];
}
interface UnreachableJson {
  homeRegion: { reachable: boolean; reason: string };
  healthChecks: { id: string; state: string | null }[];
}

describe('tm status against a deployment, through the SDK settings', () => {
  let stack: LocalStack;
  let backends: SwitchableBackends;

  const status = (dynamodbEndpoint: string) =>
    tm(['status', '--json', '--table', stack.tableName, '--region', 'us-east-1'], {
      AWS_ENDPOINT_URL_DYNAMODB: dynamodbEndpoint,
      AWS_ENDPOINT_URL_ROUTE_53: stack.route53Endpoint,
      AWS_ENDPOINT_URL_CLOUDWATCH: stack.cloudWatchEndpoint,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_MAX_ATTEMPTS: '1',
      STATIC_FAILOVER_DEPLOYMENT: 'local',
    });
  const healthChecksOf = async () => {
    const { code, stdout, stderr } = await status(stack.dynamodbEndpoint);
    if (code !== 0) throw new Error(`tm status exited ${code}: ${stderr}`);
    const shop = (JSON.parse(stdout) as StatusJson).profiles.find((p) => p.profile === 'shop');
    return Object.fromEntries((shop?.endpoints ?? []).map((e) => [e.endpoint, e.healthCheck]));
  };

  beforeAll(async () => {
    backends = await startSwitchableBackends([PRIMARY, SECONDARY]);
    const port = backends.port;
    stack = await startLocalStack({
      profiles: parseDefinitionsOrThrow([
        profileDefinition({
          name: 'shop',
          dnsConfig: { ttl: 5 },
          monitorConfig: { port, ...MONITOR },
          endpoints: [
            { name: 'primary', target: PRIMARY, priority: 1 },
            { name: 'secondary', target: SECONDARY, priority: 2 },
          ],
        }),
      ]),
      dnsPort: 0,
      timeScale: SCALE,
      regions: REGIONS,
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await backends?.close();
  });

  it('shows each endpoint’s health-check state, and follows an endpoint going down', async () => {
    // The structure applied and a status minute published: both checks healthy.
    await eventually(healthChecksOf, (c) => c.primary === 'Healthy' && c.secondary === 'Healthy', 60_000);

    backends.setUp(PRIMARY, false);
    const shop = stack.profiles.find((p) => p.name === 'shop');
    const bound = ms(
      staticFailoverTime(shop!.monitorConfig, 0, 'failing').totalSeconds + VOTE_PERIOD_SECONDS,
    );
    await eventually(
      healthChecksOf,
      (c) => c.primary === 'Unhealthy' && c.secondary === 'Healthy',
      bound + 20_000,
    );
  }, 120_000);

  it('with the home table unreachable, says so and shows the health checks with their states', async () => {
    const { code, stdout } = await status('http://127.0.0.1:9');

    expect(code).toBe(0);
    const json = JSON.parse(stdout) as UnreachableJson;
    expect(json.homeRegion.reachable).toBe(false);
    const ids = targetCheckIdsOf(stack.profiles, 'local', REGIONS);
    const states = new Map(json.healthChecks.map((c) => [c.id, c.state]));
    expect(states.get(ids.get('shop/primary') ?? '')).toBe('Unhealthy');
    expect(states.get(ids.get('shop/secondary') ?? '')).toBe('Healthy');
  });
});
