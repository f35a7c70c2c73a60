import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from '../../src/patch/index.ts';

const doc = { spec: { a: 1, list: ['x', 'y'], 'sl/ash': 's', 'til~de': 't' } };
const run = (...operations: object[]) => applyJsonPatch(doc, operations);

describe('applyJsonPatch', () => {
  it('add sets a member, inserts into a list, appends with -', () => {
    expect(run({ op: 'add', path: '/spec/b', value: { c: true } })).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, b: { c: true } } },
    });
    expect(run({ op: 'add', path: '/spec/list/1', value: 'new' })).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, list: ['x', 'new', 'y'] } },
    });
    expect(run({ op: 'add', path: '/spec/list/-', value: 'z' })).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, list: ['x', 'y', 'z'] } },
    });
    expect(run({ op: 'add', path: '/spec/list/2', value: 'end' })).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, list: ['x', 'y', 'end'] } },
    });
  });

  it('add replaces an existing member and the whole document at the empty path', () => {
    expect(run({ op: 'add', path: '/spec/a', value: 2 })).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, a: 2 } },
    });
    expect(run({ op: 'add', path: '', value: [1] })).toEqual({ ok: true, value: [1] });
  });

  it('decodes ~1 and ~0 escapes', () => {
    expect(
      run({ op: 'replace', path: '/spec/sl~1ash', value: 'S' }, { op: 'remove', path: '/spec/til~0de' }),
    ).toEqual({
      ok: true,
      value: { spec: { a: 1, list: ['x', 'y'], 'sl/ash': 'S' } },
    });
  });

  it('remove deletes members and list items', () => {
    expect(run({ op: 'remove', path: '/spec/list/0' }, { op: 'remove', path: '/spec/a' })).toEqual({
      ok: true,
      value: { spec: { list: ['y'], 'sl/ash': 's', 'til~de': 't' } },
    });
  });

  it('replace', () => {
    expect(run({ op: 'replace', path: '/spec/list/1', value: 'Y' })).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, list: ['x', 'Y'] } },
    });
  });

  it('move and copy', () => {
    expect(run({ op: 'move', from: '/spec/a', path: '/spec/moved' })).toEqual({
      ok: true,
      value: { spec: { list: ['x', 'y'], 'sl/ash': 's', 'til~de': 't', moved: 1 } },
    });
    expect(run({ op: 'copy', from: '/spec/list', path: '/copied' })).toEqual({
      ok: true,
      value: { spec: doc.spec, copied: ['x', 'y'] },
    });
  });

  it('test passes on equal values and stops the patch otherwise', () => {
    expect(
      run(
        { op: 'test', path: '/spec/list', value: ['x', 'y'] },
        { op: 'replace', path: '/spec/a', value: 9 },
      ),
    ).toEqual({
      ok: true,
      value: { spec: { ...doc.spec, a: 9 } },
    });
    expect(run({ op: 'test', path: '/spec/a', value: 2 })).toEqual({
      ok: false,
      message: 'testing value /spec/a failed: test failed',
    });
  });

  it('applies operations in order and leaves the input untouched', () => {
    const input = { a: { b: 1 } };
    expect(
      applyJsonPatch(input, [
        { op: 'add', path: '/a/c', value: 2 },
        { op: 'remove', path: '/a/b' },
      ]),
    ).toEqual({
      ok: true,
      value: { a: { c: 2 } },
    });
    expect(input).toEqual({ a: { b: 1 } });
  });

  it.each([
    [
      { op: 'add', path: '/missing/x', value: 1 },
      'add operation does not apply: doc is missing path: "/missing/x": missing value',
    ],
    [
      { op: 'add', path: '/spec/list/5', value: 1 },
      'Unable to access invalid index: 5: invalid index referenced',
    ],
    [
      { op: 'add', path: '/spec/list/01', value: 1 },
      'Unable to access invalid index: 01: invalid index referenced',
    ],
    [{ op: 'add', path: '/spec/b' }, 'add operation missing value: missing value'],
    [
      { op: 'remove', path: '/spec/nope' },
      "error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [{ op: 'remove', path: '/spec/list/2' }, 'Unable to access invalid index: 2: invalid index referenced'],
    [
      { op: 'replace', path: '/spec/nope', value: 1 },
      'replace operation does not apply: doc is missing key: /spec/nope: missing value',
    ],
    [
      { op: 'move', from: '/spec/nope', path: '/x' },
      'move operation does not apply: doc is missing from path: /spec/nope: missing value',
    ],
    [
      { op: 'move', from: '/spec', path: '/spec/inner' },
      'move operation does not apply: path /spec/inner is a child of from /spec',
    ],
    [
      { op: 'copy', from: '/nope', path: '/x' },
      'copy operation does not apply: doc is missing from path: /nope: missing value',
    ],
    [{ op: 'jump', path: '/x' }, 'Unexpected kind: jump'],
    [
      { op: 'add', path: 'no-slash', value: 1 },
      'add operation failed to decode path: invalid JSON pointer no-slash',
    ],
    ['not an object', 'invalid operation: not a JSON object'],
  ])('fails on %j', (operation, message) => {
    expect(applyJsonPatch(doc, [operation])).toEqual({ ok: false, message });
  });

  it('requires a list of operations', () => {
    expect(applyJsonPatch(doc, { op: 'add' })).toEqual({
      ok: false,
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    });
  });
});
