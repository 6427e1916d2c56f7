import { describe, expect, it } from 'vitest';
import { parseHeaders, parseStatusCodeRanges } from '../support/profile-api.js';

describe('custom headers: a list or "name:value, name:value"', () => {
  it.each([
    {
      name: 'the string form',
      input: 'x-probe:tm, x-env: prod',
      expected: [
        { name: 'x-probe', value: 'tm' },
        { name: 'x-env', value: 'prod' },
      ],
    },
    {
      name: 'a value holding a colon',
      input: 'Authorization:Basic a:b',
      expected: [{ name: 'Authorization', value: 'Basic a:b' }],
    },
    { name: 'an empty string as no headers', input: '  ', expected: [] },
    {
      name: 'the list form',
      input: [{ name: 'Host', value: 'shop.example.com' }],
      expected: [{ name: 'Host', value: 'shop.example.com' }],
    },
    { name: 'an empty value', input: 'x-empty:', expected: [{ name: 'x-empty', value: '' }] },
  ])('parses $name', ({ input, expected }) => {
    // Act
    const result = parseHeaders(input);

    // Assess
    expect(result).toEqual({ value: expected, issues: [] });
  });

  it.each([
    { name: 'an entry without a colon', input: 'x-probe', path: [0], rule: 'format', received: 'x-probe' },
    { name: 'an entry with an empty name', input: 'a:1, :2', path: [1], rule: 'format', received: ':2' },
    {
      name: 'a name that is not a token',
      input: 'x probe:1',
      path: [0],
      rule: 'format',
      received: 'x probe:1',
    },
    {
      name: 'a value with a line break',
      input: [{ name: 'x', value: 'a\r\nInjected: 1' }],
      path: [0, 'value'],
      rule: 'format',
      received: 'a\r\nInjected: 1',
    },
    {
      name: 'a name that is not a string',
      input: [{ name: 5, value: 'v' }],
      path: [0, 'name'],
      rule: 'format',
      received: 5,
    },
    {
      name: 'a wildcard Host (any case)',
      input: 'HoSt:*.example.com',
      path: [0],
      rule: 'host-wildcard',
      received: 'HoSt:*.example.com',
    },
    {
      name: 'a User-Agent (any case): probes always send their own',
      input: [{ name: 'user-AGENT', value: 'curl/8' }],
      path: [0, 'name'],
      rule: 'reserved-header',
      received: 'user-AGENT',
    },
    {
      name: 'the same header twice',
      input: 'x-a:1, X-A:2',
      path: [1],
      rule: 'unique-header',
      received: 'X-A:2',
    },
    {
      name: 'nine headers',
      input: 'a:1,b:1,c:1,d:1,e:1,f:1,g:1,h:1,i:1',
      path: [],
      rule: 'too-many',
      received: 9,
    },
    { name: 'neither a list nor a string', input: 42, path: [], rule: 'type', received: 42 },
    { name: 'a list entry that is not an object', input: ['x:1'], path: [0], rule: 'type', received: 'x:1' },
    {
      name: 'an unknown key in a list entry',
      input: [{ name: 'x', value: '1', val: 2 }],
      path: [0, 'val'],
      rule: 'unknown-field',
      received: 2,
    },
  ])('rejects $name', ({ input, path, rule, received }) => {
    // Act
    const result = parseHeaders(input);

    // Assess
    expect(result.issues).toEqual([expect.objectContaining({ path, rule, received })]);
  });
});

describe('expected status codes: a list or "200-299, 301-301"', () => {
  it.each([
    {
      name: 'the string form',
      input: '200-299, 301-301',
      expected: [
        { min: 200, max: 299 },
        { min: 301, max: 301 },
      ],
    },
    { name: 'a single code as a one-code range', input: '204', expected: [{ min: 204, max: 204 }] },
    { name: 'spaces around the dash', input: '200 - 204', expected: [{ min: 200, max: 204 }] },
    { name: 'the list form', input: [{ min: 100, max: 599 }], expected: [{ min: 100, max: 599 }] },
  ])('parses $name', ({ input, expected }) => {
    // Act
    const result = parseStatusCodeRanges(input);

    // Assess
    expect(result).toEqual({ value: expected, issues: [] });
  });

  it.each([
    { name: 'a malformed entry', input: '200-299, 3xx', path: [1], rule: 'format', received: '3xx' },
    { name: 'a code below 100', input: '99-200', path: [0], rule: 'range', received: '99-200' },
    {
      name: 'a code above 599',
      input: [{ min: 200, max: 600 }],
      path: [0, 'max'],
      rule: 'range',
      received: 600,
    },
    { name: 'a missing max', input: [{ min: 200 }], path: [0, 'max'], rule: 'required', received: undefined },
    { name: 'a missing min', input: [{ max: 200 }], path: [0, 'min'], rule: 'required', received: undefined },
    {
      name: 'min above max',
      input: [{ min: 300, max: 200 }],
      path: [0, 'max'],
      rule: 'order',
      received: 200,
    },
    { name: 'an empty list', input: [], path: [], rule: 'range-count', received: [] },
    { name: 'an empty string', input: '', path: [], rule: 'range-count', received: '' },
    {
      name: 'nine ranges',
      input: '200,201,202,203,204,205,206,207,208',
      path: [],
      rule: 'too-many',
      received: 9,
    },
    { name: 'a number', input: 200, path: [], rule: 'type', received: 200 },
  ])('rejects $name', ({ input, path, rule, received }) => {
    // Act
    const result = parseStatusCodeRanges(input);

    // Assess
    expect(result.issues).toEqual([expect.objectContaining({ path, rule, received })]);
  });
});
