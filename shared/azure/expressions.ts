/**
 * ARM template expressions (`"[parameters('name')]"`), evaluated as far as an import of a
 * Traffic Manager profile needs: the functions of `arm-functions.ts` (parameters, variables,
 * copyIndex, the string, number, array, object, comparison and logical functions real
 * templates and Bicep output use), string, integer and boolean literals, and `.property` /
 * `[index]` access. Any other function (`uniqueString`, `resourceGroup`, `reference`…,
 * whose value depends on where the template is deployed) is an `ArmExpressionError` naming
 * it, so a value is never guessed. A string starting `[[` is the literal text without its
 * first `[`, as in ARM. The expression is read whole before it is evaluated, so an unknown
 * function is an error even in the branch of `if()` that is not taken; `if()` evaluates
 * only the branch taken, as ARM does.
 */
import { TrafficManagerError } from '../errors.js';
import { ARM_FUNCTIONS, property, SUPPORTED_FUNCTIONS, type FunctionContext } from './arm-functions.js';

/** Raised for an expression this evaluator does not (or cannot) evaluate; the caller adds where. */
export class ArmExpressionError extends TrafficManagerError {
  override readonly name = 'ArmExpressionError';
  readonly code = 'ARM_EXPRESSION';
}

export interface ExpressionScope {
  /** The value of `parameters(name)`; `undefined` when the template declares no such parameter, `null` for a nullable one without a value. */
  parameter(name: string): unknown;
  /** The value of `variables(name)`; `undefined` when there is none. */
  variable(name: string): unknown;
  /** `copyIndex()` (innermost loop, `loop` undefined) or `copyIndex('loop')`; `undefined` outside that loop. */
  copyIndex?(loop: string | undefined): number | undefined;
}

/** Whether `value` is a string ARM reads as an expression. */
function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('[') && !value.startsWith('[[') && value.endsWith(']');
}

/** A string value as ARM reads it: an expression is evaluated, `[[…` loses its first `[`. */
export function evaluateString(text: string, scope: ExpressionScope): unknown {
  if (text.startsWith('[[')) return text.slice(1);
  if (!isExpression(text)) return text;
  const parser = new Parser(text.slice(1, -1));
  const node = parser.expression();
  parser.end();
  return evaluate(node, scope);
}

type Node =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Node[] }
  | { readonly kind: 'member'; readonly object: Node; readonly key: Node };

function evaluate(node: Node, scope: ExpressionScope): unknown {
  switch (node.kind) {
    case 'value':
      return node.value;
    case 'member':
      return member(evaluate(node.object, scope), evaluate(node.key, scope));
    case 'call': {
      const name = node.name.toLowerCase();
      if (name === 'if') return conditional(node.args, scope);
      const args = node.args.map((arg) => evaluate(arg, scope));
      const context: FunctionContext = {
        scope,
        name: node.name,
        fail: (message) => new ArmExpressionError(message),
      };
      const apply = ARM_FUNCTIONS[name];
      if (apply === undefined) throw unknownFunction(node.name); // checked while parsing; for the type
      return apply(args, context);
    }
  }
}

/** `if(condition, then, else)`: only the branch taken is evaluated. */
function conditional(args: readonly Node[], scope: ExpressionScope): unknown {
  const [condition, whenTrue, whenFalse] = args;
  if (args.length !== 3 || condition === undefined || whenTrue === undefined || whenFalse === undefined)
    throw new ArmExpressionError('if() takes a condition and two values');
  const value = evaluate(condition, scope);
  if (typeof value !== 'boolean')
    throw new ArmExpressionError(`if() needs a true or false condition, got ${JSON.stringify(value)}`);
  return evaluate(value ? whenTrue : whenFalse, scope);
}

function unknownFunction(name: string): ArmExpressionError {
  return new ArmExpressionError(
    `uses the ARM function ${name}(), which tm import azure does not evaluate (it evaluates ${SUPPORTED_FUNCTIONS.join(', ')}): write the value itself in the template or a parameters file`,
  );
}

type Token =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'punct'; value: '(' | ')' | ',' | '.' | '[' | ']' };

class Parser {
  private readonly tokens: Token[];
  private position = 0;

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  end(): void {
    if (this.position < this.tokens.length)
      throw new ArmExpressionError(`cannot read the expression "[${this.source}]" past its first value`);
  }

  expression(): Node {
    const token = this.next();
    let node: Node;
    if (token.kind === 'string' || token.kind === 'number') node = { kind: 'value', value: token.value };
    else if (token.kind === 'name') node = this.call(token.value);
    else throw new ArmExpressionError(`cannot read the expression "[${this.source}]"`);
    for (;;) {
      if (this.accept('.')) {
        const property = this.next();
        if (property.kind !== 'name')
          throw new ArmExpressionError(`cannot read the expression "[${this.source}]"`);
        node = { kind: 'member', object: node, key: { kind: 'value', value: property.value } };
      } else if (this.accept('[')) {
        const key = this.expression();
        this.expect(']');
        node = { kind: 'member', object: node, key };
      } else {
        return node;
      }
    }
  }

  private call(name: string): Node {
    const peek = this.tokens[this.position];
    const member = this.tokens[this.position + 1];
    if (peek?.kind === 'punct' && peek.value === '.' && member?.kind === 'name')
      throw new ArmExpressionError(
        `uses the user-defined function ${name}.${member.value}(), which tm import azure does not evaluate: write the value itself in the template or a parameters file`,
      );
    if (ARM_FUNCTIONS[name.toLowerCase()] === undefined && name.toLowerCase() !== 'if')
      throw unknownFunction(name);
    this.expect('(');
    const args: Node[] = [];
    if (!this.accept(')')) {
      do args.push(this.expression());
      while (this.accept(','));
      this.expect(')');
    }
    return { kind: 'call', name, args };
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
      // '' inside a string is one quote.
      const literal = /^'(?:[^']|'')*'/.exec(source.slice(i))?.[0];
      if (literal === undefined) throw new ArmExpressionError(`a string in "[${source}]" is not closed`);
      tokens.push({ kind: 'string', value: literal.slice(1, -1).replaceAll("''", "'") });
      i += literal.length;
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

/** `.name` / `['name']` or `[index]`. */
function member(value: unknown, key: unknown): unknown {
  const found = property(value, key);
  if (found === undefined) throw new ArmExpressionError(`has no ${JSON.stringify(key)} to read`);
  return found;
}
