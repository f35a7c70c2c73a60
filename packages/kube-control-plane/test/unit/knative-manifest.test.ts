/**
 * The Knative Serving manifest (src/knative-manifest.ts): the objects of serving's, networking's and
 * caching's YAML in apply order, and the edits this repository's cluster needs, judged on small module
 * files shaped as the real ones are (licence headers, `ko://` references, `_example` data).
 */
import { describe, expect, it } from 'vitest';
import { KNATIVE_RELEASE, knativeImage, LOCAL_IMAGE_HOST } from '../../src/knative.ts';
import {
  editKnativeObjects,
  knativeInstallStages,
  knativeObjects,
  TRAEFIK_INGRESS_CLASS,
  type KnativeSources,
} from '../../src/knative-manifest.ts';

const LICENCE = '# Copyright 2018 The Knative Authors\n#\n# Licensed under the Apache License, Version 2.0\n';
const crd = (name: string) =>
  `${LICENCE}\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${name}\n`;
const configMap = (name: string, data: string) =>
  `${LICENCE}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: knative-serving\ndata:\n${data}`;

const SOURCES: KnativeSources = {
  serving: [
    {
      path: 'config/core/100-namespace.yaml',
      text: `${LICENCE}\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: knative-serving\n`,
    },
    { path: 'config/core/300-resources/service.yaml', text: crd('services.serving.knative.dev') },
    { path: 'config/core/placeholder.go', text: 'package config\n' },
    {
      path: 'config/core/configmaps/deployment.yaml',
      text: configMap(
        'config-deployment',
        '  queue-sidecar-image: ko://knative.dev/serving/cmd/queue\n  _example: |-\n    # registries-skipping-tag-resolving: "kind.local,ko.local,dev.local"\n',
      ),
    },
    {
      path: 'config/core/configmaps/features.yaml',
      text: configMap('config-features', '  _example: |-\n    kubernetes.podspec-fieldref: "disabled"\n'),
    },
    {
      path: 'config/core/deployments/controller.yaml',
      text:
        `${LICENCE}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: controller\n  namespace: knative-serving\n` +
        'spec:\n  template:\n    spec:\n      containers:\n        - name: controller\n          image: ko://knative.dev/serving/cmd/controller\n' +
        '---\n' +
        `apiVersion: v1\nkind: Service\nmetadata:\n  name: controller\n  namespace: knative-serving\n`,
    },
  ],
  networking: [
    { path: 'config/ingress.yaml', text: crd('ingresses.networking.internal.knative.dev') },
    { path: 'config/config-network.yaml', text: configMap('config-network', '  _example: ""\n') },
  ],
  caching: [{ path: 'config/image.yaml', text: crd('images.caching.internal.knative.dev') }],
};

const IMAGES = {
  controller: knativeImage('controller'),
  webhook: knativeImage('webhook'),
  autoscaler: knativeImage('autoscaler'),
  activator: knativeImage('activator'),
  queue: knativeImage('queue'),
};

const crdObject = (name: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name },
});

describe('the Knative Serving manifest', () => {
  it('names the images `npm run images -- knative` builds, on the local host', () => {
    expect(IMAGES).toEqual({
      controller: `scoby.local/knative-controller:${KNATIVE_RELEASE.serving}`,
      webhook: `scoby.local/knative-webhook:${KNATIVE_RELEASE.serving}`,
      autoscaler: `scoby.local/knative-autoscaler:${KNATIVE_RELEASE.serving}`,
      activator: `scoby.local/knative-activator:${KNATIVE_RELEASE.serving}`,
      queue: `scoby.local/knative-queue:${KNATIVE_RELEASE.serving}`,
    });
  });

  it('orders the namespace, every CRD, config-network, then serving by path, with the local images and Scoby’s settings', () => {
    const objects = editKnativeObjects(knativeObjects(SOURCES), {
      images: IMAGES,
      localImageHost: LOCAL_IMAGE_HOST,
      ingressClass: TRAEFIK_INGRESS_CLASS,
      progressDeadline: '120s',
    });
    expect(objects).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'knative-serving' } },
      crdObject('services.serving.knative.dev'),
      crdObject('ingresses.networking.internal.knative.dev'),
      crdObject('images.caching.internal.knative.dev'),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'config-network', namespace: 'knative-serving' },
        data: { _example: '', 'ingress-class': 'traefik.ingress.networking.knative.dev' },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'config-deployment', namespace: 'knative-serving' },
        data: {
          'queue-sidecar-image': `scoby.local/knative-queue:${KNATIVE_RELEASE.serving}`,
          _example: '# registries-skipping-tag-resolving: "kind.local,ko.local,dev.local"',
          'registries-skipping-tag-resolving': 'kind.local,ko.local,dev.local,scoby.local',
          'progress-deadline': '120s',
        },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'config-features', namespace: 'knative-serving' },
        data: {
          _example: 'kubernetes.podspec-fieldref: "disabled"',
          'kubernetes.podspec-fieldref': 'enabled',
        },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'controller', namespace: 'knative-serving' },
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'controller', image: `scoby.local/knative-controller:${KNATIVE_RELEASE.serving}` },
              ],
            },
          },
        },
      },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'controller', namespace: 'knative-serving' } },
    ]);
  });

  it('keeps registries an installation already skips, and adds the local host once', () => {
    const objects = knativeObjects(SOURCES).map((object) =>
      object.metadata.name === 'config-deployment'
        ? { ...object, data: { 'registries-skipping-tag-resolving': 'registry.example, scoby.local' } }
        : object,
    );
    const edited = editKnativeObjects(objects, {
      images: IMAGES,
      localImageHost: LOCAL_IMAGE_HOST,
      ingressClass: TRAEFIK_INGRESS_CLASS,
    });
    expect(edited.find((object) => object.metadata.name === 'config-deployment')?.data).toEqual({
      'registries-skipping-tag-resolving': 'registry.example,scoby.local',
    });
  });

  it('refuses a ko:// reference to a program that is not built, or to another module', () => {
    const withImage = (image: string): KnativeSources => ({
      ...SOURCES,
      serving: [
        ...SOURCES.serving,
        { path: 'config/core/z.yaml', text: `kind: Pod\nmetadata:\n  name: p\nspec:\n  image: ${image}\n` },
      ],
    });
    const edit = (image: string) =>
      editKnativeObjects(knativeObjects(withImage(image)), {
        images: IMAGES,
        localImageHost: LOCAL_IMAGE_HOST,
        ingressClass: TRAEFIK_INGRESS_CLASS,
      });
    expect(() => edit('ko://knative.dev/serving/cmd/default-domain')).toThrow(
      'ko://knative.dev/serving/cmd/default-domain names default-domain, which is not built (controller, webhook, autoscaler, activator, queue)',
    );
    expect(() => edit('ko://knative.dev/net-kourier/cmd/kourier')).toThrow(
      'ko://knative.dev/net-kourier/cmd/kourier is not a program of knative.dev/serving',
    );
  });

  it('refuses sources without the ConfigMaps it must edit, and caching YAML that is more than its CRD', () => {
    const withoutFeatures = {
      ...SOURCES,
      serving: SOURCES.serving.filter((file) => !file.path.endsWith('features.yaml')),
    };
    expect(() =>
      editKnativeObjects(knativeObjects(withoutFeatures), {
        images: IMAGES,
        localImageHost: LOCAL_IMAGE_HOST,
        ingressClass: TRAEFIK_INGRESS_CLASS,
      }),
    ).toThrow('there is no ConfigMap config-features');
    const caching = {
      ...SOURCES,
      caching: [...SOURCES.caching, { path: 'config/x.yaml', text: configMap('x', '  a: b\n') }],
    };
    expect(() => knativeObjects(caching)).toThrow("caching's config/ holds more than its CRD: ConfigMap x");
  });

  it('splits the manifest into CRDs, the components, then the webhook configurations, each in its order', () => {
    const webhook = (kind: string, name: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: { name },
    });
    const objects = [
      ...knativeObjects(SOURCES),
      webhook('MutatingWebhookConfiguration', 'webhook.serving.knative.dev'),
      webhook('ValidatingWebhookConfiguration', 'validation.webhook.serving.knative.dev'),
      webhook('ValidatingWebhookConfiguration', 'config.webhook.serving.knative.dev'),
    ];
    const names = (list: { kind: string; metadata: { name: string } }[]) =>
      list.map((object) => `${object.kind} ${object.metadata.name}`);
    const stages = knativeInstallStages(objects);
    expect({
      crds: names(stages.crds),
      components: names(stages.components),
      webhooks: names(stages.webhooks),
    }).toEqual({
      crds: [
        'CustomResourceDefinition services.serving.knative.dev',
        'CustomResourceDefinition ingresses.networking.internal.knative.dev',
        'CustomResourceDefinition images.caching.internal.knative.dev',
      ],
      components: [
        'Namespace knative-serving',
        'ConfigMap config-network',
        'ConfigMap config-deployment',
        'ConfigMap config-features',
        'Deployment controller',
        'Service controller',
      ],
      webhooks: [
        'MutatingWebhookConfiguration webhook.serving.knative.dev',
        'ValidatingWebhookConfiguration validation.webhook.serving.knative.dev',
        'ValidatingWebhookConfiguration config.webhook.serving.knative.dev',
      ],
    });
  });
});
