/**
 * compileUpdate applies $set, $inc and $unset itself when a path runs through embedded documents only: the result
 * must be mingo's (the operators it replaces), field order included, and mingo must still take the other paths.
 */
import * as mingoUpdate from 'mingo/operators/update';
import { describe, expect, it } from 'vitest';
import { compileUpdate } from './query';
import type { Update } from './types';

type Obj = Record<string, unknown>;
const operators = mingoUpdate as unknown as Record<string, (expr: Obj) => (doc: Obj) => unknown>;

/** mingo's operators alone, in the update's order, on a copy. */
function viaMingo(doc: Obj, update: Update): Obj {
  const out = structuredClone(doc);
  for (const [op, fields] of Object.entries(update)) operators[op]?.(structuredClone(fields as Obj))(out);
  return out;
}

const docs: Obj[] = [
  {
    _id: 'a',
    n: 1,
    s: 'x',
    nested: { keep: true, n: 2, deep: { v: 1 } },
    list: [1, 2],
    docs: [{ n: 1 }, { n: 2 }],
  },
  { _id: 'b' },
  { _id: 'c', nested: null, list: [], n: 0.1 },
  { _id: 'd', nested: 'scalar', docs: [] },
];

const updates: Update[] = [
  { $set: { n: 2 } },
  { $set: { 'nested.n': 3, 'nested.added': 'yes', 'fresh.deep.x': 1, obj: { a: [1, { b: 2 }] } } },
  { $set: { n: 5 }, $inc: { 'nested.n': 1, created: 3, 'stats.views': 1 } },
  { $inc: { n: 0.2 } },
  { $unset: { s: '', 'nested.keep': 1, 'missing.deep': 1, nope: '' } },
  { $set: { 'list.1': 20 } },
  { $set: { 'docs.0.n': 7 } },
  { $unset: { 'list.0': '' } },
  { $inc: { 'docs.1.n': 1 } },
  { $set: { list: [3], nested: { fresh: true } } },
];

describe('compileUpdate: $set, $inc and $unset applied directly', () => {
  for (const update of updates) {
    it(`gives mingo's result for ${JSON.stringify(update)}`, () => {
      const apply = compileUpdate(update);
      for (const doc of docs) {
        let expected: Obj | Error;
        try {
          expected = viaMingo(doc, update);
        } catch (err) {
          expected = err as Error;
        }
        const copy = structuredClone(doc);
        if (expected instanceof Error) {
          expect(() => apply(copy, false, true)).toThrow();
          continue;
        }
        const inPlace = apply(copy, false, true);
        expect(JSON.stringify(inPlace)).toBe(JSON.stringify(expected));
        // Without inPlace the document given is left as it was.
        const original = structuredClone(doc);
        expect(JSON.stringify(apply(original, false))).toBe(JSON.stringify(expected));
        expect(original).toEqual(doc);
      }
    });
  }

  it('gives each document its own copy of an object value', () => {
    const apply = compileUpdate({ $set: { obj: { a: [1] } } });
    const one = apply({ _id: '1' }, false, true);
    const two = apply({ _id: '2' }, false, true);
    (one.obj as { a: number[] }).a.push(2);
    expect(two.obj).toEqual({ a: [1] });
  });
});
