export class ConfigWriterError extends Error {
  override name = 'ConfigWriterError';
}

/** The custom resource was invoked with properties it cannot use. */
export class InvalidConfigRequestError extends ConfigWriterError {
  override name = 'InvalidConfigRequestError';
}
