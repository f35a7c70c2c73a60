import { describe, expect, it } from 'vitest';
import { parseObjects } from '../../src/cli/documents.ts';

const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a', namespace: 'shop' } };
const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'v' } };

describe('parseObjects', () => {
  it('reads every YAML document, skipping empty ones', () => {
    const text =
      '---\napiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: shop}\n---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {k: v}\n';
    expect(parseObjects(text, 'objects.yaml')).toEqual({ ok: true, objects: [service, configMap] });
  });

  it('reads JSON', () => {
    expect(parseObjects(JSON.stringify(service), 'service.json')).toEqual({ ok: true, objects: [service] });
  });

  it('flattens a List and typed lists such as ServiceList', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [service, configMap] };
    const typed = { apiVersion: 'v1', kind: 'ServiceList', metadata: {}, items: [service] };
    expect(parseObjects(`${JSON.stringify(list)}\n---\n${JSON.stringify(typed)}`, 'lists.yaml')).toEqual({
      ok: true,
      objects: [service, configMap, service],
    });
  });

  it('reads an empty file as no objects', () => {
    expect(parseObjects('', 'empty.yaml')).toEqual({ ok: true, objects: [] });
  });

  it('names the file and document of a syntax error', () => {
    const reading = parseObjects(`${JSON.stringify(service)}\n---\nkind: [unclosed\n`, 'bad.yaml');
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.message).toMatch(/^bad\.yaml: document 2: /);
  });

  it('refuses documents that are not Kubernetes objects', () => {
    expect(parseObjects('just a string', 'x.yaml')).toEqual({
      ok: false,
      message: 'x.yaml: document 1: not a Kubernetes object (apiVersion, kind and metadata are required)',
    });
    expect(parseObjects('apiVersion: v1\nkind: Service\n', 'x.yaml')).toEqual({
      ok: false,
      message: 'x.yaml: document 1: not a Kubernetes object (apiVersion, kind and metadata are required)',
    });
    expect(parseObjects('apiVersion: v1\nkind: List\nitems: [1]\n', 'x.yaml')).toEqual({
      ok: false,
      message: 'x.yaml: document 1: not a Kubernetes object (apiVersion, kind and metadata are required)',
    });
  });

  it('refuses a List without items', () => {
    expect(parseObjects('apiVersion: v1\nkind: List\n', 'x.yaml')).toEqual({
      ok: false,
      message: 'x.yaml: document 1: a List needs an "items" array',
    });
  });
});
