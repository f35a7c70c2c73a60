import { describe, expect, it } from 'vitest';
import { applyServerSideApply } from '../../src/patch/index.ts';

const live = {
  metadata: { name: 'd', labels: { mine: 'a', theirs: 'b' }, finalizers: ['other', 'mine'] },
  spec: {
    replicas: 3,
    paused: false,
    template: {
      spec: {
        containers: [
          {
            name: 'app',
            image: 'v1',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
            resources: { limits: { cpu: '1' } },
          },
          { name: 'injected', image: 'sidecar' },
        ],
      },
    },
  },
};

describe('applyServerSideApply', () => {
  it('sets every applied field and leaves unmentioned fields alone', () => {
    const applied = { metadata: { labels: { mine: 'z' } }, spec: { replicas: 5 } };
    expect(applyServerSideApply(live, applied, undefined)).toEqual({
      ...live,
      metadata: { ...live.metadata, labels: { mine: 'z', theirs: 'b' } },
      spec: { ...live.spec, replicas: 5 },
    });
  });

  it('removes fields applied before but not any more', () => {
    const previous = { metadata: { labels: { mine: 'a' } }, spec: { replicas: 3, paused: false } };
    const applied = { spec: { replicas: 3 } };
    const others = [{ metadata: { labels: { theirs: 'b' } } }];
    expect(applyServerSideApply(live, applied, previous, undefined, others)).toEqual({
      metadata: { name: 'd', labels: { theirs: 'b' }, finalizers: ['other', 'mine'] },
      spec: { replicas: 3, template: live.spec.template },
    });
  });

  it('withdraws only the owned parts of a map or list no longer applied at all', () => {
    const previous = {
      metadata: { labels: { mine: 'a' }, finalizers: ['mine'] },
      spec: { template: { spec: { containers: [{ name: 'app', image: 'v1' }] } } },
    };
    const others = [
      {
        metadata: { labels: { theirs: 'b' }, finalizers: ['other'] },
        spec: { template: { spec: { containers: [{ name: 'injected', image: 'sidecar' }] } } },
      },
    ];
    expect(applyServerSideApply(live, { spec: { replicas: 3 } }, previous, undefined, others)).toEqual({
      metadata: { name: 'd', labels: { theirs: 'b' }, finalizers: ['other'] },
      spec: { ...live.spec, template: { spec: { containers: [{ name: 'injected', image: 'sidecar' }] } } },
    });
  });

  it('removes a map no other manager owns anything in, and keeps one where another does', () => {
    const live = { spec: { a: { b: 1 }, c: 1, d: { mine: 1, theirs: 2 } } };
    const previous = { spec: { a: { b: 1 }, c: 1, d: { mine: 1 } } };
    const others = [{ spec: { d: { theirs: 2 } } }];
    expect(applyServerSideApply(live, { spec: { c: 1 } }, previous, undefined, others)).toEqual({
      spec: { c: 1, d: { theirs: 2 } },
    });
  });

  it('removes a withdrawn map whole, with the values the server defaulted in it, when nobody else owns any', () => {
    const probe = {
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
    };
    const container = (extra: object) => ({ spec: { containers: [{ name: 'app', image: 'v1', ...extra }] } });
    const live = { spec: { template: container({ livenessProbe: probe }) } };
    const previous = { spec: { template: container({ livenessProbe: { httpGet: { port: 8080 } } }) } };
    const applied = { spec: { template: container({}) } };
    expect(applyServerSideApply(live, applied, previous)).toEqual({ spec: { template: container({}) } });
    // Another manager's field in the probe keeps the probe; the handler this manager owned goes whole.
    const others = [{ spec: { template: container({ livenessProbe: { periodSeconds: 10 } }) } }];
    expect(applyServerSideApply(live, applied, previous, undefined, others)).toEqual({
      spec: {
        template: container({
          livenessProbe: { timeoutSeconds: 1, periodSeconds: 10 },
        }),
      },
    });
  });

  it('removes a withdrawn keyed list whole when nobody else owns an item, and only its items otherwise', () => {
    const live = { spec: { ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }], keep: 1 } };
    const previous = { spec: { ports: [{ name: 'http', containerPort: 8080 }] } };
    const at = () => ({ kind: 'mergeByKey', key: 'containerPort' }) as const;
    expect(applyServerSideApply(live, { spec: { keep: 1 } }, previous, at)).toEqual({ spec: { keep: 1 } });
    const others = [{ spec: { ports: [{ containerPort: 9090 }] } }];
    const shared = {
      spec: { ports: [...live.spec.ports, { containerPort: 9090, protocol: 'TCP' }], keep: 1 },
    };
    expect(applyServerSideApply(shared, { spec: { keep: 1 } }, previous, at, others)).toEqual({
      spec: { ports: [{ containerPort: 9090, protocol: 'TCP' }], keep: 1 },
    });
  });

  it('drops an atomic list and scalars no longer applied', () => {
    expect(
      applyServerSideApply(
        { spec: { args: ['a'], n: 1, keep: 2 } },
        {},
        { spec: { args: ['a'], n: 1 } },
        undefined,
        [{ spec: { keep: 2 } }],
      ),
    ).toEqual({
      spec: { keep: 2 },
    });
  });

  it('merges keyed lists by key and removes items no longer applied', () => {
    const previous = {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'app',
                image: 'v1',
                env: [
                  { name: 'A', value: '1' },
                  { name: 'B', value: '2' },
                ],
              },
            ],
          },
        },
      },
    };
    const applied = {
      spec: {
        template: { spec: { containers: [{ name: 'app', image: 'v2', env: [{ name: 'A', value: '1' }] }] } },
      },
    };
    expect(applyServerSideApply(live, applied, previous)).toEqual({
      ...live,
      spec: {
        ...live.spec,
        template: {
          spec: {
            containers: [
              {
                name: 'app',
                image: 'v2',
                env: [{ name: 'A', value: '1' }],
                resources: { limits: { cpu: '1' } },
              },
              { name: 'injected', image: 'sidecar' },
            ],
          },
        },
      },
    });
  });

  it('removes a whole keyed item that is no longer applied', () => {
    const withTwo = {
      spec: { template: { spec: { containers: [{ name: 'app' }, { name: 'extra', image: 'e' }] } } },
    };
    const liveWithExtra = applyServerSideApply(live, withTwo, undefined);
    const result = applyServerSideApply(
      liveWithExtra,
      { spec: { template: { spec: { containers: [{ name: 'app' }] } } } },
      withTwo,
    ) as typeof live;
    expect(result.spec.template.spec.containers.map((c) => c.name)).toEqual(['app', 'injected']);
  });

  it('replaces lists without a merge key', () => {
    const result = applyServerSideApply(
      { spec: { args: ['a', 'b'] } },
      { spec: { args: ['c'] } },
      { spec: { args: ['a', 'b'] } },
    );
    expect(result).toEqual({ spec: { args: ['c'] } });
  });

  it('treats finalizers as a set shared with other managers', () => {
    const result = applyServerSideApply(
      live,
      { metadata: { finalizers: ['new'] } },
      { metadata: { finalizers: ['mine'] } },
    );
    expect((result as typeof live).metadata.finalizers).toEqual(['other', 'new']);
  });

  it('a null in the applied configuration removes the field', () => {
    expect(applyServerSideApply({ a: 1, b: 2 }, { a: null }, undefined)).toEqual({ b: 2 });
  });

  it('creates from nothing', () => {
    expect(applyServerSideApply(undefined, { kind: 'ConfigMap', data: { a: 'b' } }, undefined)).toEqual({
      kind: 'ConfigMap',
      data: { a: 'b' },
    });
  });

  it('does not change its inputs', () => {
    const before = structuredClone(live);
    applyServerSideApply(
      live,
      { spec: { template: { spec: { containers: [{ name: 'app', image: 'x' }] } } } },
      undefined,
    );
    expect(live).toEqual(before);
  });
});
