/** Errors of loading a definitions file (before validation: the file itself is the problem). */
export class DefinitionsLoadError extends Error {
  readonly code: string = 'DEFINITIONS_LOAD';

  constructor(
    readonly file: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${message}`, options);
    this.name = 'DefinitionsLoadError';
  }
}

export class DefinitionsFileNotFoundError extends DefinitionsLoadError {
  override readonly code = 'DEFINITIONS_NOT_FOUND';

  constructor(file: string, options?: ErrorOptions) {
    super(file, 'no such file', options);
    this.name = 'DefinitionsFileNotFoundError';
  }
}

export class DefinitionsSyntaxError extends DefinitionsLoadError {
  override readonly code = 'DEFINITIONS_SYNTAX';

  constructor(file: string, detail: string, options?: ErrorOptions) {
    super(file, `cannot be read: ${detail}`, options);
    this.name = 'DefinitionsSyntaxError';
  }
}

export class UnsupportedDefinitionsFormatError extends DefinitionsLoadError {
  override readonly code = 'DEFINITIONS_FORMAT';

  constructor(file: string) {
    super(file, 'unsupported file type: use .ts, .mts, .js, .mjs, .json, .yaml or .yml');
    this.name = 'UnsupportedDefinitionsFormatError';
  }
}

/** A definitions module did something other than export its profiles while loading (exit, memory, non-data export). */
export class DefinitionsModuleError extends DefinitionsLoadError {
  override readonly code: string = 'DEFINITIONS_MODULE';

  constructor(file: string, message: string) {
    super(file, message);
    this.name = 'DefinitionsModuleError';
  }
}

/** A definitions module did not finish loading within the time limit. */
export class DefinitionsTimeoutError extends DefinitionsModuleError {
  override readonly code = 'DEFINITIONS_TIMEOUT';

  constructor(file: string, limitMs: number) {
    super(
      file,
      `did not finish loading within ${limitMs / 1000} s (a busy loop, or a top-level await waiting on a timer or a request?)`,
    );
    this.name = 'DefinitionsTimeoutError';
  }
}
