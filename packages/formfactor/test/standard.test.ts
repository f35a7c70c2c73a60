import { describe, expect, it } from 'vitest';
import {
  adapterContainer,
  adapterPodSpec,
  ownerReference,
  renderInputFor,
  selectorLabels,
  standardLabels,
  standardMetadata,
} from '../src/index.ts';
import { IMAGE, INSTANCE, ORDERS_CONTAINER, EMPTY_CONTAINER } from './running-example.ts';

const SECURITY_CONTEXT = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true };

describe('labels (§4.2)', () => {
  it('gives children the five labels and selectors the first three', () => {
    expect(standardLabels('mailer', 'orders')).toEqual({
      'app.kubernetes.io/name': 'mailer',
      'app.kubernetes.io/instance': 'orders',
      'app.kubernetes.io/component': 'workload',
      'app.kubernetes.io/part-of': 'scoby-component',
      'app.kubernetes.io/managed-by': 'scoby-controller',
    });
    expect(selectorLabels('mailer', 'orders')).toEqual({
      'app.kubernetes.io/name': 'mailer',
      'app.kubernetes.io/instance': 'orders',
      'app.kubernetes.io/component': 'workload',
    });
  });

  it('applies L(v) to the registration and instance names', () => {
    const long = 'payments-gateway-notifications-from-partner-bank-eu-production-and-more';
    expect(selectorLabels(long, long)).toEqual({
      'app.kubernetes.io/name': 'payments-gateway-notifications-from-partner-bank-eu-pr-11c88332',
      'app.kubernetes.io/instance': 'payments-gateway-notifications-from-partner-bank-eu-pr-11c88332',
      'app.kubernetes.io/component': 'workload',
    });
  });
});

describe('ownerReference (§4.3)', () => {
  it('is the controller reference to the instance', () => {
    expect(ownerReference(INSTANCE)).toEqual({
      apiVersion: 'notify.example.com/v1',
      kind: 'Mailer',
      name: 'orders',
      uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
      controller: true,
      blockOwnerDeletion: true,
    });
  });
});

describe('adapter container (§3.4)', () => {
  it('omits env and volumeMounts when empty', () => {
    expect(adapterContainer(IMAGE, EMPTY_CONTAINER)).toEqual({
      name: 'adapter',
      image: IMAGE,
      terminationMessagePolicy: 'FallbackToLogsOnError',
      securityContext: SECURITY_CONTEXT,
    });
  });

  it('carries the rendered env and mounts', () => {
    expect(adapterContainer(IMAGE, ORDERS_CONTAINER)).toEqual({
      name: 'adapter',
      image: IMAGE,
      env: ORDERS_CONTAINER.env,
      volumeMounts: ORDERS_CONTAINER.volumeMounts,
      terminationMessagePolicy: 'FallbackToLogsOnError',
      securityContext: SECURITY_CONTEXT,
    });
  });

  it('puts volumes on the pod spec, omitted when empty', () => {
    expect(adapterPodSpec(IMAGE, EMPTY_CONTAINER)).toEqual({
      containers: [adapterContainer(IMAGE, EMPTY_CONTAINER)],
    });
    expect(adapterPodSpec(IMAGE, ORDERS_CONTAINER)).toEqual({
      volumes: ORDERS_CONTAINER.volumes,
      containers: [adapterContainer(IMAGE, ORDERS_CONTAINER)],
    });
  });
});

describe('renderInputFor', () => {
  it('adds the standard name, labels, owner reference, container and pod spec', () => {
    const context = {
      block: { replicas: 2 },
      registration: { name: 'mailer', image: IMAGE },
      instance: INSTANCE,
      container: ORDERS_CONTAINER,
    };
    expect(renderInputFor(context)).toEqual({
      ...context,
      standard: {
        name: 'mailer-orders',
        subdomainName: 'mailer-orders',
        labels: standardLabels('mailer', 'orders'),
        selectorLabels: selectorLabels('mailer', 'orders'),
        ownerReference: ownerReference(INSTANCE),
      },
      adapterContainer: adapterContainer(IMAGE, ORDERS_CONTAINER),
      podSpec: adapterPodSpec(IMAGE, ORDERS_CONTAINER),
    });
  });

  it('gives each child its own copy of the standard metadata', () => {
    const input = renderInputFor({
      block: {},
      registration: { name: 'mailer', image: IMAGE },
      instance: INSTANCE,
      container: EMPTY_CONTAINER,
    });
    const first = standardMetadata(input);
    expect(first).toEqual({
      name: 'mailer-orders',
      namespace: 'shop',
      labels: standardLabels('mailer', 'orders'),
      ownerReferences: [ownerReference(INSTANCE)],
    });
    first.labels!['extra'] = 'x';
    first.ownerReferences![0]!.name = 'changed';
    expect(standardMetadata(input, { 'example.com/tier': 'a' })).toEqual({
      name: 'mailer-orders',
      namespace: 'shop',
      labels: { ...standardLabels('mailer', 'orders'), 'example.com/tier': 'a' },
      ownerReferences: [ownerReference(INSTANCE)],
    });
  });
});
