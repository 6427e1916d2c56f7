/**
 * ARM template expressions as tm import azure reads them: the values it evaluates, and for
 * everything else an ArmExpressionError that says what could not be read (never a guess).
 */
import { describe, expect, it } from 'vitest';
import { ArmExpressionError, evaluateString, type ExpressionScope } from '../../shared/azure/expressions.js';

const scope: ExpressionScope = {
  parameter: (name) =>
    ({
      zone: 'example.com',
      endpoints: [{ name: 'east', target: 'east.example.net' }],
      settings: { ttl: 30, enabled: true },
      regions: ['eastus', 'westeurope'],
      more: ['northeurope'],
    })[name],
  variable: (name) => ({ prefix: 'shop' })[name],
  copyIndex: (loop) => (loop === undefined || loop === 'endpoints' ? 2 : undefined),
};

describe('ARM expressions: the values tm import azure evaluates', () => {
  it.each([
    { text: 'plain text', value: 'plain text' },
    { text: '[[literal]', value: '[literal]' },
    { text: "['it''s']", value: "it's" },
    { text: '[42]', value: 42 },
    { text: "[parameters('endpoints')[0].name]", value: 'east' },
    { text: "[parameters('endpoints')[0]['target']]", value: 'east.example.net' },
    { text: "[parameters('settings').ttl]", value: 30 },
    {
      text: "[concat(variables('prefix'), '-', parameters('settings').ttl, '-', true())]",
      value: 'shop-30-true',
    },
    {
      text: "[concat(parameters('regions'), parameters('more'))]",
      value: ['eastus', 'westeurope', 'northeurope'],
    },
    { text: "[format('{0}.{1:D}', variables('prefix'), parameters('zone'))]", value: 'shop.example.com' },
    { text: '[false()]', value: false },
    {
      text: "[resourceId('rg', 'Microsoft.Network/trafficManagerProfiles', 'child')]",
      value: '/providers/Microsoft.Network/trafficManagerProfiles/child',
    },
    { text: '[copyIndex()]', value: 2 },
    { text: "[copyIndex('endpoints', 1)]", value: 3 },
    { text: "[length(parameters('regions'))]", value: 2 },
    { text: '[range(1, 3)]', value: [1, 2, 3] },
    { text: '[add(mul(2, 3), sub(div(7, 2), mod(7, 2)))]', value: 8 },
    { text: "[string(int('42'))]", value: '42' },
    { text: '[string(true())]', value: 'True' },
    { text: "[toUpper(toLower('AbC'))]", value: 'ABC' },
    { text: "[coalesce(null(), parameters('zone'))]", value: 'example.com' },
    {
      text: "[if(empty(''), 'empty', parameters('missing'))]",
      value: 'empty',
    },
    { text: "[contains(parameters('regions'), 'westeurope')]", value: true },
    { text: "[contains(parameters('settings'), 'TTL')]", value: true },
    { text: "[union(parameters('settings'), createObject('ttl', 60))]", value: { ttl: 60, enabled: true } },
    {
      text: "[union(parameters('regions'), parameters('more'), parameters('regions'))]",
      value: ['eastus', 'westeurope', 'northeurope'],
    },
    {
      text: "[items(createObject('b', 2, 'a', 1))]",
      value: [
        { key: 'a', value: 1 },
        { key: 'b', value: 2 },
      ],
    },
    { text: "[tryGet(parameters('settings'), 'missing')]", value: null },
    { text: "[and(equals(1, 1), not(greater(1, 2)), or(false(), lessOrEquals('a', 'b')))]", value: true },
    { text: "[parameters('settings').TTL]", value: 30 },
    { text: '[copyIndex(1)]', value: 3 },
    { text: "[if(false(), 'a', 'b')]", value: 'b' },
    { text: '[equals(createArray(1, 2), createArray(1, 2))]', value: true },
    { text: '[equals(createArray(1, 2), createArray(2, 1))]', value: false },
    { text: '[equals(createArray(1), createArray(1, 2))]', value: false },
    { text: '[equals(createArray(1), 1)]', value: false },
    { text: "[equals(createObject('a', 1), createObject('A', 1))]", value: false },
    { text: "[equals(createObject('a', createArray(1)), createObject('a', createArray(1)))]", value: true },
    { text: "[equals(createObject('a', 1), createObject('a', 1, 'b', 2))]", value: false },
    { text: "[equals(createObject('a', 1), 'a')]", value: false },
    { text: "[equals('Shop', 'shop')]", value: false },
    { text: '[empty(createArray())]', value: true },
    { text: '[empty(createArray(0))]', value: false },
    { text: '[empty(createObject())]', value: true },
    { text: "[empty(parameters('settings'))]", value: false },
    { text: '[empty(0)]', value: false },
    { text: "[length(parameters('settings'))]", value: 2 },
    { text: "[length('shop')]", value: 4 },
    { text: "[contains(parameters('zone'), 'ample')]", value: true },
    { text: "[contains(parameters('zone'), 'Ample')]", value: false },
    { text: "[union(parameters('settings'), null())]", value: { ttl: 30, enabled: true } },
    {
      text: "[union(createObject('a', createObject('x', 1)), createObject('a', createObject('y', 2)))]",
      value: { a: { x: 1, y: 2 } },
    },
    {
      text: "[union(createObject('a', createArray(1)), createObject('a', createArray(2)))]",
      value: { a: [2] },
    },
    { text: '[int(-3)]', value: -3 },
    { text: '[bool(true())]', value: true },
    { text: '[bool(1)]', value: true },
    { text: '[bool(0)]', value: false },
    { text: "[bool('TRUE')]", value: true },
    { text: "[bool('false')]", value: false },
    { text: "[string('text')]", value: 'text' },
    { text: '[string(false())]', value: 'False' },
    { text: "[string(createArray(1, 'a'))]", value: '[1,"a"]' },
    { text: "[string(createObject('a', 1))]", value: '{"a":1}' },
    { text: '[greater(2, 1)]', value: true },
    { text: "[greater('b', 'a')]", value: true },
    { text: "[greater('a', 'b')]", value: false },
    { text: "[greaterOrEquals('a', 'a')]", value: true },
    { text: "[less('a', 'a')]", value: false },
    { text: "[tryGet(createArray('a', 'b'), 1)]", value: 'b' },
    { text: "[tryGet(createArray('a', 'b'), 'b')]", value: null },
    { text: "[tryGet(parameters('endpoints'), 0, 'NAME')]", value: 'east' },
    { text: "[tryGet(createObject('a', null()), 'a', 'b')]", value: null },
    { text: "[tryGet(parameters('zone'), 0)]", value: null },
    { text: '[min(createArray(3, 1, 2))]', value: 1 },
    { text: '[min(3, 1, 2)]', value: 1 },
    { text: '[min(4)]', value: 4 },
    { text: '[max(createArray(3, 1, 2))]', value: 3 },
    { text: '[max(3, 1, 2)]', value: 3 },
    { text: "[join(parameters('regions'), ',')]", value: 'eastus,westeurope' },
    { text: "[substring('example', 2)]", value: 'ample' },
    { text: "[substring('example', 0, 3)]", value: 'exa' },
    { text: "[substring('example')]", value: 'example' },
    { text: "[first('abc')]", value: 'a' },
    { text: "[first(parameters('regions'))]", value: 'eastus' },
    { text: '[first(createArray())]', value: null },
    { text: "[last('abc')]", value: 'c' },
    { text: "[last(parameters('regions'))]", value: 'westeurope' },
    { text: '[last(createArray())]', value: null },
    { text: '[coalesce(null(), null())]', value: null },
    { text: "[array('a')]", value: ['a'] },
    { text: "[array(parameters('regions'))]", value: ['eastus', 'westeurope'] },
  ])('$text → $value', ({ text, value }) => {
    expect(evaluateString(text, scope)).toEqual(value);
  });
});

describe('ARM expressions: what cannot be read is an error saying why', () => {
  it.each([
    {
      text: "[parameters('missing')]",
      error:
        'names the parameter "missing", which has no value (not in the template, its defaultValue or a parameters file)',
    },
    {
      text: "[variables('missing')]",
      error: 'names the variable "missing", which has no value (not in the template)',
    },
    { text: "[parameters('zone', 'extra')]", error: 'parameters() takes one name' },
    { text: '[variables(1)]', error: 'variables() takes one name' },
    {
      text: "[uniqueString('x')]",
      error: 'uses the ARM function uniqueString(), which tm import azure does not evaluate',
    },
    {
      text: "[parameters('zone') 'x']",
      error: `cannot read the expression "[parameters('zone') 'x']" past its first value`,
    },
    { text: '[(1)]', error: 'cannot read the expression "[(1)]"' },
    { text: "[parameters('settings').1]", error: `cannot read the expression "[parameters('settings').1]"` },
    { text: "[parameters('settings')['ttl'x]", error: 'expected "]"' },
    { text: "[parameters('settings').]", error: `the expression "[parameters('settings').]" ends early` },
    { text: "[concat('a' 'b')]", error: 'expected ")"' },
    { text: "[parameters('zone]", error: `a string in "[parameters('zone]" is not closed` },
    { text: '[parameters(@)]', error: 'cannot read the expression "[parameters(@)]" at "@)"' },
    { text: "[parameters('settings').missing]", error: 'has no "missing" to read' },
    { text: "[parameters('regions')[5]]", error: 'has no 5 to read' },
    { text: "[parameters('zone')[0]]", error: 'has no 0 to read' },
    {
      text: "[concat(parameters('settings'))]",
      error: 'concat() takes strings and numbers, got {"ttl":30,"enabled":true}',
    },
    { text: "[resourceId('child')]", error: 'resourceId() needs a resource type and a name' },
    { text: "[if(true(), 'a', resourceGroup().id)]", error: 'uses the ARM function resourceGroup()' },
    {
      text: "[contoso.hostName('shop')]",
      error: 'uses the user-defined function contoso.hostName(), which tm import azure does not evaluate',
    },
    { text: "[if('yes', 'a', 'b')]", error: 'if() needs a true or false condition, got "yes"' },
    { text: "[copyIndex('other')]", error: "copyIndex('other') names no copy loop around it" },
    { text: "[add('1', 2)]", error: 'add() takes integers, got "1"' },
    { text: '[div(1, 0)]', error: 'div() by zero' },
    { text: "[int('x')]", error: 'int() takes an integer or its text, got "x"' },
    { text: '[range(0, 20000)]', error: 'range() makes 0–10000 numbers, got 20000' },
    {
      text: "[resourceId('Microsoft.Network/trafficManagerProfiles')]",
      error: 'resourceId() needs a resource type and a name',
    },
    { text: "[if(true(), 'a')]", error: 'if() takes a condition and two values' },
    { text: '[equals(1)]', error: 'equals() takes 2 values, got 1' },
    { text: "[empty('a', 'b')]", error: 'empty() takes 1 value, got 2' },
    { text: '[length(5)]', error: 'length() takes a string, an array or an object, got 5' },
    { text: "[contains(5, 'a')]", error: 'contains() takes a string, an array or an object, got 5' },
    {
      text: "[contains(parameters('zone'), createArray())]",
      error: 'contains() takes strings and numbers, got []',
    },
    {
      text: '[union(createArray(1), createObject())]',
      error: 'union() takes objects or arrays, all of one kind',
    },
    { text: "[createObject('a')]", error: 'createObject() takes pairs of a key and a value' },
    { text: "[bool('yes')]", error: 'bool() takes true, false, their text or a number, got "yes"' },
    { text: '[bool(createArray())]', error: 'bool() takes true, false, their text or a number, got []' },
    { text: "[not('x')]", error: 'not() takes true or false, got "x"' },
    { text: "[greater(1, 'a')]", error: 'greater() compares two integers or two strings' },
    { text: '[tryGet(createObject())]', error: 'tryGet() takes a value and keys' },
    { text: "[join('a', ',')]", error: 'join() takes an array and a separator' },
    { text: "[substring('abc', -1)]", error: 'substring() reaches past the end of "abc"' },
    { text: "[substring('abc', 0, -1)]", error: 'substring() reaches past the end of "abc"' },
    { text: "[substring('abc', 2, 5)]", error: 'substring() reaches past the end of "abc"' },
    { text: '[first(1)]', error: 'first() takes a string or an array, got 1' },
    { text: "[items('x')]", error: 'items() takes an object, got "x"' },
    { text: "[min(createArray('a'))]", error: 'min() takes integers, got "a"' },
  ])('$text', ({ text, error }) => {
    let thrown: unknown;
    try {
      evaluateString(text, scope);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ArmExpressionError);
    expect((thrown as Error).message).toContain(error);
  });
});

describe('ARM expressions: copyIndex() outside a copy loop', () => {
  it('is an error saying so, not an index made up', () => {
    const outside: ExpressionScope = { parameter: () => undefined, variable: () => undefined };
    expect(() => evaluateString('[copyIndex()]', outside)).toThrow(
      new ArmExpressionError('copyIndex() is used outside a copy loop'),
    );
  });
});
