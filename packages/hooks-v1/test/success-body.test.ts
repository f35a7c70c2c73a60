import { describe, expect, it } from 'vitest';
import { readSuccessBody } from '../src/success-body.ts';
import { deployment, deploymentManagedKinds, instance, service } from './support/fixtures.ts';

const sent = {
  object: instance,
  children: { deployment, service },
  managedKinds: deploymentManagedKinds,
  formFactor: 'deployment',
  instanceNamespace: 'shop',
};
const read = (body: string) => readSuccessBody(body, sent);

describe('readSuccessBody (§5.1)', () => {
  it.each([
    [''],
    ['  \n\t'],
    ['null'],
    ['{}'],
    [' {} '],
    ['{"object": null, "children": null}'],
    ['{"object": {}, "children": {}}'],
    ['{"other": 1}'],
  ])('reads %j as no change', (body) => {
    expect(read(body)).toEqual({ ok: true });
  });

  it.each([['{"object":'], ['[]'], ['[{"object": {}}]'], ['"text"'], ['42'], ['true'], ['<html></html>']])(
    'rejects %j as not a JSON object',
    (body) => {
      expect(read(body)).toEqual({ ok: false, detail: 'body is not a JSON object' });
    },
  );
});

describe('readSuccessBody object (§5.2)', () => {
  it('returns the object with its status', () => {
    const object = {
      status: { observedGeneration: 2, conditions: [{ type: 'QuotaChecked', status: 'True' }] },
    };
    expect(read(JSON.stringify({ object }))).toEqual({ ok: true, object });
  });

  it.each([['[]'], ['"x"'], ['1'], ['[{"status": {}}]']])('rejects object %s', (object) => {
    expect(read(`{"object": ${object}}`)).toEqual({ ok: false, detail: 'object is not a JSON object' });
  });

  it.each([['null'], ['[]'], ['"Ready"'], ['3']])('rejects object.status %s', (status) => {
    expect(read(`{"object": {"status": ${status}}}`)).toEqual({
      ok: false,
      detail: 'object.status is not a JSON object',
    });
  });

  it('reports spec, labels and annotations that differ from what was sent', () => {
    const object = {
      spec: { smtp: { host: 'elsewhere' } },
      metadata: { name: 'renamed', labels: { team: 'other' }, annotations: { owner: 'ops' } },
      status: {},
    };
    expect(read(JSON.stringify({ object }))).toEqual({
      ok: true,
      object: { status: {} },
      objectChangesIgnored: ['spec', 'metadata.labels'],
    });
    // Only the status is kept: an object without one gives none.
    const annotated = { metadata: { annotations: {} }, spec: null };
    expect(read(JSON.stringify({ object: annotated }))).toEqual({
      ok: true,
      objectChangesIgnored: ['spec', 'metadata.annotations'],
    });
  });

  it('does not report fields equal to what was sent, in any key order, nor other fields', () => {
    const object = {
      kind: 'Other',
      metadata: { annotations: { owner: 'ops' }, labels: { team: 'mail' }, name: 'x', uid: 'y' },
      spec: { smtp: { host: 'mail.internal' } },
      status: { observedGeneration: 9 },
    };
    expect(read(JSON.stringify({ object }))).toEqual({
      ok: true,
      object: { status: { observedGeneration: 9 } },
    });
  });
});

describe('readSuccessBody children (§5.3)', () => {
  it('returns validated children that replace the map', () => {
    const children = { deployment: { ...deployment, spec: { replicas: 3 } }, service };
    expect(read(JSON.stringify({ children }))).toEqual({ ok: true, children });
  });

  it.each([['[]'], ['"deployment"'], ['[{"apiVersion": "v1"}]']])('rejects children %s', (children) => {
    expect(read(`{"children": ${children}}`)).toEqual({ ok: false, detail: 'children is not a JSON object' });
  });

  it('reports the first invalid child with its key', () => {
    const children = { deployment: { apiVersion: 'apps/v1', metadata: { name: 'x' } } };
    expect(read(JSON.stringify({ children }))).toEqual({
      ok: false,
      detail: 'children.deployment: kind must be a non-empty string',
    });
  });

  it('treats an invalid object before the children', () => {
    expect(read('{"object": {"status": 1}, "children": {"x": 1}}')).toEqual({
      ok: false,
      detail: 'object.status is not a JSON object',
    });
  });
});
