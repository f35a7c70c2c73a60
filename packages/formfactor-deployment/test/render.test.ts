import { describe, expect, it } from 'vitest';
import { golden, renderFor } from './fixtures.ts';

const MAILER_ORDERS = golden('mailer-orders.yaml');

describe('deployment children (§3.1, §3.2)', () => {
  it('renders the running example exactly: Deployment and Service', () => {
    expect(renderFor({ deployment: { replicas: 2, service: { port: 80, targetPort: 8080 } } })).toStrictEqual(
      MAILER_ORDERS,
    );
  });

  it('renders only the Deployment, with one replica, by default', () => {
    const expected = {
      deployment: {
        ...MAILER_ORDERS['deployment'],
        spec: { ...(MAILER_ORDERS['deployment']!.spec as object), replicas: 1 },
      },
    };
    expect(renderFor(undefined)).toStrictEqual(expected);
    expect(renderFor({})).toStrictEqual(expected);
    expect(renderFor({ deployment: {} })).toStrictEqual(expected);
    expect(renderFor({ deployment: null })).toStrictEqual(expected);
  });

  it("names the Deployment of a dotted registration as Go Scoby did, and shortens only the Service's name", () => {
    const children = renderFor(
      { deployment: { service: { port: 80, targetPort: 8080 } } },
      undefined,
      'sources.acme',
    );
    expect(children['deployment']!.metadata.name).toBe('sources.acme-orders');
    expect(children['service']!.metadata.name).toBe('sources-acme-orders-1ec62930');
  });

  it('keeps zero replicas', () => {
    expect(
      (renderFor({ deployment: { replicas: 0 } })['deployment']!.spec as { replicas: number }).replicas,
    ).toBe(0);
  });

  it('puts the rendered env, mounts and volumes into the pod template', () => {
    const container = {
      env: [{ name: 'MAILER_SMTP_HOST', value: 'smtp.example.com' }],
      volumes: [{ name: 'tls', secret: { secretName: 'mailer-tls' } }],
      volumeMounts: [{ name: 'tls', mountPath: '/etc/tls' }],
    };
    const deployment = renderFor({ deployment: { replicas: 2 } }, container)['deployment']!;
    expect((deployment.spec as { template: { spec: unknown } }).template.spec).toStrictEqual({
      volumes: [{ name: 'tls', secret: { secretName: 'mailer-tls' } }],
      containers: [
        {
          name: 'adapter',
          image: 'registry.example.com/mailer-adapter:1.4.2',
          env: [{ name: 'MAILER_SMTP_HOST', value: 'smtp.example.com' }],
          volumeMounts: [{ name: 'tls', mountPath: '/etc/tls' }],
          terminationMessagePolicy: 'FallbackToLogsOnError',
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
        },
      ],
    });
  });

  it('does not share metadata objects between the Deployment and the Service', () => {
    const children = renderFor({ deployment: { service: { port: 80, targetPort: 8080 } } });
    expect(children['deployment']!.metadata.labels).not.toBe(children['service']!.metadata.labels);
    expect(children['deployment']!.metadata.ownerReferences).not.toBe(
      children['service']!.metadata.ownerReferences,
    );
  });
});
