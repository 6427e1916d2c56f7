/**
 * ARM template expressions (`"[parameters('name')]"`), evaluated as far as an import of a
 * Traffic Manager profile needs: `parameters`, `variables`, `concat`, `format` and
 * `resourceId` (what Bicep compiles names, parents and nested profile ids to), string,
 * integer and boolean literals, and `.property` / `[index]` access. Any other function is
 * an `ArmExpressionError` naming it, so a value is never guessed. A string starting `[[` is
 * the literal text without its first `[`, as in ARM.
 */
import { TrafficManagerError } from '../errors.js';
import { isRecord } from '../profile/issues.js';

/** Raised for an expression this evaluator does not (or cannot) evaluate; the caller adds where. */
export class ArmExpressionError extends TrafficManagerError {
  override readonly name = 'ArmExpressionError';
  readonly code = 'ARM_EXPRESSION';
}

export interface ExpressionScope {
  /** The value of `parameters(name)`; `undefined` when the template declares no such parameter. */
  parameter(name: string): unknown;
  /** The value of `variables(name)`; `undefined` when there is none. */
  variable(name: string): unknown;
}

export const SUPPORTED_FUNCTIONS = ['parameters', 'variables', 'concat', 'format', 'resourceId'] as const;

const KNOWN_FUNCTIONS: ReadonlySet<string> = new Set([
  ...SUPPORTED_FUNCTIONS.map((name) => name.toLowerCase()),
  'true',
  'false',
]);

/** Whether `value` is a string ARM reads as an expression. */
export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('[') && !value.startsWith('[[') && value.endsWith(']');
}

/** A string value as ARM reads it: an expression is evaluated, `[[…` loses its first `[`. */
export function evaluateString(text: string, scope: ExpressionScope): unknown {
  if (text.startsWith('[[')) return text.slice(1);
  if (!isExpression(text)) return text;
  const parser = new Parser(text.slice(1, -1), scope);
  const value = parser.expression();
  parser.end();
  return value;
}

type Token =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'punct'; value: '(' | ')' | ',' | '.' | '[' | ']' };

class Parser {
  private readonly tokens: Token[];
  private position = 0;

  constructor(
    private readonly source: string,
    private readonly scope: ExpressionScope,
  ) {
    this.tokens = tokenize(source);
  }

  end(): void {
    if (this.position < this.tokens.length)
      throw new ArmExpressionError(`cannot read the expression "[${this.source}]" past its first value`);
  }

  expression(): unknown {
    const token = this.next();
    let value: unknown;
    if (token.kind === 'string' || token.kind === 'number') value = token.value;
    else if (token.kind === 'name') value = this.call(token.value);
    else throw new ArmExpressionError(`cannot read the expression "[${this.source}]"`);
    for (;;) {
      const peek = this.tokens[this.position];
      if (peek?.kind === 'punct' && peek.value === '.') {
        this.position += 1;
        const property = this.next();
        if (property.kind !== 'name')
          throw new ArmExpressionError(`cannot read the expression "[${this.source}]"`);
        value = member(value, property.value);
      } else if (peek?.kind === 'punct' && peek.value === '[') {
        this.position += 1;
        const index = this.expression();
        this.expect(']');
        value = member(value, index);
      } else {
        return value;
      }
    }
  }

  private call(name: string): unknown {
    if (!KNOWN_FUNCTIONS.has(name.toLowerCase()))
      throw new ArmExpressionError(
        `uses the ARM function ${name}(), which tm import azure does not evaluate (it evaluates ${SUPPORTED_FUNCTIONS.join(', ')}): write the value itself in the template or a parameters file`,
      );
    this.expect('(');
    const args: unknown[] = [];
    const peek = this.tokens[this.position];
    if (!(peek?.kind === 'punct' && peek.value === ')')) {
      args.push(this.expression());
      while (this.accept(',')) args.push(this.expression());
    }
    this.expect(')');
    return this.apply(name, args);
  }

  private apply(name: string, args: unknown[]): unknown {
    switch (name.toLowerCase()) {
      case 'parameters':
        return this.lookup('parameter', args, (key) => this.scope.parameter(key));
      case 'variables':
        return this.lookup('variable', args, (key) => this.scope.variable(key));
      case 'concat':
        return args.every(Array.isArray) && args.length > 0
          ? args.flat()
          : args.map((arg) => text(arg, name)).join('');
      case 'format': {
        const [pattern, ...values] = args;
        return text(pattern, name).replace(/\{(\d+)(?::[^}]*)?\}/g, (_all, index: string) =>
          text(values[Number(index)], name),
        );
      }
      case 'resourceid': {
        // [subscriptionId], [resourceGroupName], type, name1, name2…: only the type and names matter here.
        const typeAt = args.findIndex((arg) => typeof arg === 'string' && arg.includes('/'));
        if (typeAt < 0 || typeAt === args.length - 1)
          throw new ArmExpressionError('resourceId() needs a resource type and a name');
        const names = args.slice(typeAt + 1).map((arg) => text(arg, name));
        return `/providers/${text(args[typeAt], name)}/${names.join('/')}`;
      }
      case 'true':
        return true;
      default:
        return false; // 'false'
    }
  }

  private lookup(kind: string, args: unknown[], read: (key: string) => unknown): unknown {
    const [key] = args;
    if (args.length !== 1 || typeof key !== 'string')
      throw new ArmExpressionError(`${kind}s() takes one name`);
    const value = read(key);
    if (value === undefined)
      throw new ArmExpressionError(
        `names the ${kind} ${JSON.stringify(key)}, which has no value (not in the template${kind === 'parameter' ? ', its defaultValue or a parameters file' : ''})`,
      );
    return value;
  }

  private next(): Token {
    const token = this.tokens[this.position];
    if (token === undefined) throw new ArmExpressionError(`the expression "[${this.source}]" ends early`);
    this.position += 1;
    return token;
  }

  private accept(value: string): boolean {
    const token = this.tokens[this.position];
    if (token?.kind === 'punct' && token.value === value) {
      this.position += 1;
      return true;
    }
    return false;
  }

  private expect(value: string): void {
    if (!this.accept(value))
      throw new ArmExpressionError(`cannot read the expression "[${this.source}]": expected "${value}"`);
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source.charAt(i);
    if (/\s/.test(char)) {
      i += 1;
    } else if (char === "'") {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= source.length) throw new ArmExpressionError(`a string in "[${source}]" is not closed`);
        if (source.charAt(i) === "'") {
          if (source.charAt(i + 1) !== "'") break;
          value += "'";
          i += 2;
        } else {
          value += source.charAt(i);
          i += 1;
        }
      }
      i += 1;
      tokens.push({ kind: 'string', value });
    } else if ('(),.[]'.includes(char)) {
      tokens.push({ kind: 'punct', value: char as '(' });
      i += 1;
    } else {
      const word = /^-?\d+|^[A-Za-z_][\w]*/.exec(source.slice(i))?.[0];
      if (word === undefined)
        throw new ArmExpressionError(`cannot read the expression "[${source}]" at "${source.slice(i)}"`);
      tokens.push(
        /^-?\d/.test(word) ? { kind: 'number', value: Number(word) } : { kind: 'name', value: word },
      );
      i += word.length;
    }
  }
  return tokens;
}

function member(value: unknown, key: unknown): unknown {
  const found =
    Array.isArray(value) && typeof key === 'number'
      ? value[key]
      : isRecord(value) && typeof key === 'string'
        ? value[key]
        : undefined;
  if (found === undefined) throw new ArmExpressionError(`has no ${JSON.stringify(key)} to read`);
  return found;
}

function text(value: unknown, fn: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ArmExpressionError(`${fn}() takes strings and numbers, got ${JSON.stringify(value)}`);
}
