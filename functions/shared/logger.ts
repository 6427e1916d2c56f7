/**
 * The one logger of every handler: Powertools Logger, JSON lines with `level`, `service` and
 * `timestamp`. Its level comes from `POWERTOOLS_LOG_LEVEL`, which the stacks set from their
 * `logLevel` prop on every function.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { EnvironmentVariable as Env } from '../../shared/contracts/environment.js';
import { SERVICE_NAME } from '../../shared/contracts/metrics.js';

export const logger = new Logger({ serviceName: process.env[Env.powertoolsServiceName] || SERVICE_NAME });
