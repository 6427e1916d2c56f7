/**
 * `tm status [--profile NAME] [--json] [--table NAME] [--region R] [--endpoint URL]`
 * Reads the status items the evaluator keeps — from the running local stack by default,
 * or from AWS with `--table` (or TM_TABLE_NAME) and the usual AWS credentials/region.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { parseArgs } from 'node:util';
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import type { PublishProblem } from '../../functions/evaluator/ports.js';
import type { ProfileStatusReport } from '../../shared/status/evaluate.js';
import { readStateFile } from '../local/state-file.js';

const USAGE = 'usage: tm status [--profile NAME] [--json] [--table NAME] [--region REGION] [--endpoint URL]';

export async function run(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        profile: { type: 'string' },
        json: { type: 'boolean', default: false },
        table: { type: 'string' },
        region: { type: 'string' },
        endpoint: { type: 'string' },
      },
    }));
  } catch (error) {
    process.stderr.write(`tm status: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }

  const local =
    values.table === undefined && process.env.TM_TABLE_NAME === undefined ? readStateFile() : undefined;
  const tableName = values.table ?? process.env.TM_TABLE_NAME ?? local?.tableName;
  if (tableName === undefined) {
    process.stderr.write(
      'tm status: no local stack is running (start one with `npm start` or `tm local`);\n' +
        '  for AWS, name the table: tm status --table NAME [--region REGION]  (or set TM_TABLE_NAME)\n',
    );
    return 1;
  }
  const client =
    local !== undefined
      ? new DynamoDBClient({
          endpoint: local.dynamodbEndpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        })
      : new DynamoDBClient({
          ...(values.region === undefined ? {} : { region: values.region }),
          ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
        });

  const store = new DynamoDbEvaluatorStore(client, tableName);
  let reports: ProfileStatus[];
  try {
    reports = [...(await store.loadStatuses()).values()].map((s) => ({
      ...s.report,
      ...(s.publishProblem === undefined ? {} : { publishProblem: s.publishProblem }),
    }));
  } catch (error) {
    process.stderr.write(`tm status: could not read table ${tableName}: ${(error as Error).message}\n`);
    return 1;
  }
  if (values.profile !== undefined) {
    reports = reports.filter((r) => r.profile === values.profile);
    if (reports.length === 0) {
      process.stderr.write(`tm status: no status for profile "${values.profile}" (yet)\n`);
      return 1;
    }
  }
  reports.sort((a, b) => a.profile.localeCompare(b.profile));
  const now = Date.now();
  process.stdout.write(
    values.json ? `${JSON.stringify({ profiles: reports }, null, 2)}\n` : formatReports(reports, now),
  );
  return 0;
}

/** A profile's report, with the reason Route 53 refused its last change when it did. */
export type ProfileStatus = ProfileStatusReport & { readonly publishProblem?: PublishProblem };

export function formatReports(reports: readonly ProfileStatus[], now: number): string {
  if (reports.length === 0) return 'no profiles evaluated yet\n';
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(
      `${report.profile}  ${report.status}${report.stale ? ' [stale]' : ''}  since ${when(report.since, now)}`,
    );
    if (report.publishProblem !== undefined) {
      lines.push(
        `  ! Route 53 refused its last change (${when(report.publishProblem.at, now)}): ${report.publishProblem.reasons.join('; ')}`,
      );
    }
    const width = Math.max(...report.endpoints.map((e) => e.endpoint.length));
    for (const endpoint of report.endpoints) {
      lines.push(
        `  ${endpoint.endpoint.padEnd(width)}  ${endpoint.status.padEnd(16)}${endpoint.stale ? ' [stale]' : ''}  since ${when(endpoint.since, now)}  ${endpoint.reason}`,
      );
      if (endpoint.votes.length > 0) {
        const votes = endpoint.votes.map(
          (v) => `${v.region} ${v.vote}${v.latencyMs === undefined ? '' : ` ${Math.round(v.latencyMs)}ms`}`,
        );
        lines.push(`  ${' '.repeat(width)}  ${votes.join(' · ')}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function when(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  const ago =
    seconds < 120
      ? `${seconds}s`
      : seconds < 7200
        ? `${Math.round(seconds / 60)}m`
        : `${Math.round(seconds / 3600)}h`;
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 19)}Z (${ago} ago)`;
}
