import { TrafficManagerError } from '../../shared/errors.js';

/** Errors of the config writer (the custom resource that writes the profiles to the table). */
export class ConfigWriterError extends TrafficManagerError {
  override readonly name: string = 'ConfigWriterError';
  readonly code: string = 'CONFIG_WRITER';
}

/** The custom resource was invoked with properties it cannot use. */
export class InvalidConfigRequestError extends ConfigWriterError {
  override readonly name = 'InvalidConfigRequestError';
  override readonly code = 'INVALID_CONFIG_REQUEST';
}
