/**
 * The one Route 53 name codec (shared/zone/names.ts), against the Route 53 Developer Guide's
 * "DNS domain name format": letters stored lower case, every character but a–z 0–9 - _ (and the
 * dots between labels) returned as \ + three octal digits; the IAM condition key form drops the
 * trailing dot. Four copies used to do this; the two escapers disagreed on non-ASCII names.
 */
import { describe, expect, it } from 'vitest';
import { escapeName, fromRoute53Name, toRoute53Name } from '../../shared/zone/names.js';

describe('escaping (what the API returns; the IAM condition key without the trailing dot)', () => {
  it.each([
    { name: 'letters lower case', input: 'Shop.Example.COM', api: 'shop.example.com.' },
    { name: 'digits, hyphen and underscore kept', input: '_tm-1.example.com', api: '_tm-1.example.com.' },
    { name: 'a trailing dot given is not doubled', input: 'shop.example.com.', api: 'shop.example.com.' },
    { name: 'the wildcard as \\052', input: '*.example.com', api: '\\052.example.com.' },
    { name: 'other printable ASCII escaped', input: 'a@b!.example.com', api: 'a\\100b\\041.example.com.' },
    { name: 'a space escaped (040)', input: 'a b.example.com', api: 'a\\040b.example.com.' },
    // chosen: UTF-8 bytes (the local Route 53 escaped the UTF-16 code unit: ä → \344, 日 → \62745)
    {
      name: 'an internationalised name, one octal escape per UTF-8 byte',
      input: 'exämple.com',
      api: 'ex\\303\\244mple.com.',
    },
    {
      name: 'a character of three UTF-8 bytes',
      input: '日本.example',
      api: '\\346\\227\\245\\346\\234\\254.example.',
    },
    { name: 'the xn-- form needs no escape', input: 'xn--exmple-cua.com', api: 'xn--exmple-cua.com.' },
  ])('$name', ({ input, api }) => {
    expect(toRoute53Name(input)).toBe(api);
    expect(escapeName(input)).toBe(api.slice(0, -1));
  });
});

describe('reading Route 53 names', () => {
  it.each([
    { name: 'the trailing dot goes', input: 'shop.example.com.', ours: 'shop.example.com' },
    { name: 'the wildcard', input: '\\052.example.com.', ours: '*.example.com' },
    { name: 'escaped letters lower case', input: '\\101bc.example.com', ours: 'abc.example.com' },
    { name: 'UTF-8 escapes decode to the character', input: 'ex\\303\\244mple.com.', ours: 'exämple.com' },
    {
      name: 'a Latin-1 escape (the guide’s example) reads one byte',
      input: 'ex\\344mple.com.',
      ours: 'exämple.com',
    },
    { name: 'only A–Z folded, as Route 53 does', input: 'ÄBC.example.com', ours: 'Äbc.example.com' },
  ])('$name', ({ input, ours }) => {
    expect(fromRoute53Name(input)).toBe(ours);
  });

  it.each(['shop.example.com', '*.example.com', 'exämple.com', '日本.example', 'a b!.example.com'])(
    '%s round-trips',
    (name) => {
      expect(fromRoute53Name(toRoute53Name(name))).toBe(name);
    },
  );
});
