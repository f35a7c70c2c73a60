import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { LabelIndex } from '../../src/instance/label-index.ts';

const LABEL = 'app.kubernetes.io/instance';

function child(name: string, instance: string | undefined, namespace = 'ns'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, ...(instance === undefined ? {} : { labels: { [LABEL]: instance } }) },
  };
}

/** An index over a plain map standing for the informer's cache. */
function indexed() {
  const cache = new Map<string, KubeObject>();
  const index = new LabelIndex(LABEL, (namespace, name) => cache.get(`${namespace}/${name}`));
  return {
    index,
    add(object: KubeObject, old?: KubeObject) {
      cache.set(`${object.metadata.namespace}/${object.metadata.name}`, object);
      index.upsert(object, old);
    },
    remove(object: KubeObject) {
      cache.delete(`${object.metadata.namespace}/${object.metadata.name}`);
      index.remove(object);
    },
    names: (namespace: string, value: string) => index.get(namespace, value).map((o) => o.metadata.name),
  };
}

describe('LabelIndex', () => {
  it('finds the one object of a label value, and none once it is removed', () => {
    const { add, remove, names } = indexed();
    add(child('a', 'mailer'));
    add(child('a', 'mailer'));
    expect(names('ns', 'mailer')).toEqual(['a']);
    expect(names('other', 'mailer')).toEqual([]);
    remove(child('a', 'mailer'));
    expect(names('ns', 'mailer')).toEqual([]);
  });

  it('finds every object of a label value, down to one and none as they are removed', () => {
    const { add, remove, names } = indexed();
    add(child('a', 'mailer'));
    add(child('b', 'mailer'));
    add(child('c', 'mailer'));
    expect(names('ns', 'mailer')).toEqual(['a', 'b', 'c']);
    remove(child('b', 'mailer'));
    remove(child('b', 'mailer'));
    expect(names('ns', 'mailer')).toEqual(['a', 'c']);
    remove(child('a', 'mailer'));
    expect(names('ns', 'mailer')).toEqual(['c']);
    add(child('d', 'mailer'));
    expect(names('ns', 'mailer')).toEqual(['c', 'd']);
    remove(child('c', 'mailer'));
    remove(child('d', 'mailer'));
    expect(names('ns', 'mailer')).toEqual([]);
  });

  it('moves an object whose label value changed, and ignores one without the label', () => {
    const { add, remove, names } = indexed();
    const before = child('a', 'mailer');
    add(before);
    add(child('a', 'greeter'), before);
    expect(names('ns', 'mailer')).toEqual([]);
    expect(names('ns', 'greeter')).toEqual(['a']);
    add(child('x', undefined));
    remove(child('x', undefined));
    remove(child('unknown', 'greeter'));
    expect(names('ns', 'greeter')).toEqual(['a']);
  });
});
