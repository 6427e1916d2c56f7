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
