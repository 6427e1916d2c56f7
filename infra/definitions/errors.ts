/** Errors of loading a definitions file (before validation: the file itself is the problem). */
import { TrafficManagerError } from '../../shared/errors.js';

export class DefinitionsLoadError extends TrafficManagerError {
  override readonly name: string = 'DefinitionsLoadError';
  readonly code: string = 'DEFINITIONS_LOAD';

  constructor(
    readonly file: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${message}`, options);
  }
}

export class DefinitionsFileNotFoundError extends DefinitionsLoadError {
  override readonly name = 'DefinitionsFileNotFoundError';
  override readonly code = 'DEFINITIONS_NOT_FOUND';

  constructor(file: string, options?: ErrorOptions) {
    super(file, 'no such file', options);
  }
}

export class DefinitionsSyntaxError extends DefinitionsLoadError {
  override readonly name = 'DefinitionsSyntaxError';
  override readonly code = 'DEFINITIONS_SYNTAX';

  constructor(file: string, detail: string, options?: ErrorOptions) {
    super(file, `cannot be read: ${detail}`, options);
  }
}

export class UnsupportedDefinitionsFormatError extends DefinitionsLoadError {
  override readonly name = 'UnsupportedDefinitionsFormatError';
  override readonly code = 'DEFINITIONS_FORMAT';

  constructor(file: string) {
    super(file, 'unsupported file type: use .ts, .mts, .js, .mjs, .json, .yaml or .yml');
  }
}

/** A definitions module did something other than export its profiles while loading (exit, memory, non-data export). */
export class DefinitionsModuleError extends DefinitionsLoadError {
  override readonly name: string = 'DefinitionsModuleError';
  override readonly code: string = 'DEFINITIONS_MODULE';
}

/** A definitions module did not finish loading within the time limit. */
export class DefinitionsTimeoutError extends DefinitionsModuleError {
  override readonly name = 'DefinitionsTimeoutError';
  override readonly code = 'DEFINITIONS_TIMEOUT';

  constructor(file: string, limitMs: number) {
    super(
      file,
      `did not finish loading within ${limitMs / 1000} s (a busy loop, or a top-level await waiting on a timer or a request?)`,
    );
  }
}
