import { describe, expect, it } from 'vitest';
import { knativeServiceFormFactor } from '../src/index.ts';
import { golden, REGISTRY, renderFor } from './fixtures.ts';

const FULL = golden('mailer-orders-ksvc.yaml');
const FULL_KSVC = FULL['ksvc']!;
const LABELS = {
  'app.kubernetes.io/name': 'mailer',
  'app.kubernetes.io/instance': 'orders',
  'app.kubernetes.io/component': 'workload',
  'app.kubernetes.io/part-of': 'scoby-component',
  'app.kubernetes.io/managed-by': 'scoby-controller',
};
const POD_SPEC = (FULL_KSVC.spec as { template: { spec: unknown } }).template.spec;

describe('Knative Service child (§3.3)', () => {
  it('renders the running example with scale annotations and visibility exactly', () => {
    expect(renderFor({ minScale: 1, maxScale: 5, visibility: 'cluster-local' })).toStrictEqual(FULL);
  });

  it('omits the template metadata and the visibility label when none is set', () => {
    expect(renderFor({})).toStrictEqual({
      ksvc: {
        ...FULL_KSVC,
        metadata: { ...FULL_KSVC.metadata, labels: LABELS },
        spec: { template: { spec: POD_SPEC } },
      },
    });
  });

  it('writes each scale annotation only when its value is set, as a decimal string', () => {
    const annotationsOf = (block: unknown) =>
      (renderFor(block)['ksvc']!.spec as { template: { metadata?: { annotations: unknown } } }).template
        .metadata;
    expect(annotationsOf({ minScale: 0 })).toStrictEqual({
      annotations: { 'autoscaling.knative.dev/min-scale': '0' },
    });
    expect(annotationsOf({ maxScale: 10 })).toStrictEqual({
      annotations: { 'autoscaling.knative.dev/max-scale': '10' },
    });
  });

  it('copies visibility verbatim', () => {
    expect(renderFor({ visibility: 'public' })['ksvc']!.metadata.labels).toStrictEqual({
      ...LABELS,
      'networking.knative.dev/visibility': 'public',
    });
  });

  it('puts rendered volumes and the adapter’s env and mounts into the template', () => {
    const container = {
      env: [{ name: 'MAILER_REGION', value: 'eu' }],
      volumes: [{ name: 'cfg', configMap: { name: 'mailer-cfg' } }],
      volumeMounts: [{ name: 'cfg', mountPath: '/etc/mailer' }],
    };
    expect((renderFor({}, container)['ksvc']!.spec as { template: unknown }).template).toStrictEqual({
      spec: {
        volumes: [{ name: 'cfg', configMap: { name: 'mailer-cfg' } }],
        containers: [
          {
            name: 'adapter',
            image: 'registry.example.com/mailer-adapter:1.4.2',
            env: [{ name: 'MAILER_REGION', value: 'eu' }],
            volumeMounts: [{ name: 'cfg', mountPath: '/etc/mailer' }],
            terminationMessagePolicy: 'FallbackToLogsOnError',
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
          },
        ],
      },
    });
  });
});

describe('knativeService block validation (docs/spec/registration.md §3.1)', () => {
  const problem = (field: string, detail: string) => ({
    path: `spec.workload.formFactor.knativeService.${field}`,
    reason: 'InvalidFormFactor',
    message: `spec.workload.formFactor.knativeService.${field}: ${detail}`,
  });

  it('accepts the documented fields', () => {
    expect(
      REGISTRY.validateBlock('knativeService', { minScale: 0, maxScale: 3, visibility: 'cluster-local' }),
    ).toStrictEqual([]);
    expect(REGISTRY.validateBlock('knativeService', {})).toStrictEqual([]);
  });

  it('refuses negative or non-integer scales and a non-string visibility', () => {
    expect(
      REGISTRY.validateBlock('knativeService', { minScale: -1, maxScale: '5', visibility: true }),
    ).toStrictEqual([
      problem('minScale', 'must be an integer greater than or equal to 0'),
      problem('maxScale', 'must be an integer greater than or equal to 0'),
      problem('visibility', 'must be string'),
    ]);
  });

  it('resolves to hook name ksvc with its one condition type', () => {
    expect(REGISTRY.resolve({ knativeService: { minScale: 1 } })).toStrictEqual({
      ok: true,
      formFactor: {
        plugin: knativeServiceFormFactor,
        name: 'knativeService',
        hookName: 'ksvc',
        block: { minScale: 1 },
        conditionTypes: ['KnativeServiceReady'],
      },
    });
  });
});
