/**
 * A generated case as Kubernetes objects (its own Namespace, CRD and registration, so that cases of
 * one batch share an API server and a controller without meeting), the hook's answer to a request,
 * and the status its children report for the second reconcile.
 */
import type { HookReply, HookRequestRecord } from '../hooks-server.ts';
import { childName } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { REGISTRATION_API } from '../scoby.ts';
import type { ChildrenChange, HookAnswer, InstanceCase, ObservedCase, PlanCase } from './plan-case.ts';

export const SCOBY_NAMESPACE = 'scoby-system';
/** The name of a case's instance at `position`. */
export function instanceName(position: number): string {
  return `w${position}`;
}
export const KIND = 'Widget';
export const PLURAL = 'widgets';

export interface CaseNames {
  index: number;
  namespace: string;
  group: string;
  registration: string;
  /** The hook's path: the scripted hook answers each case by it. */
  hookPath: string;
  controllerConfigMap: string;
}

export function caseNames(index: number): CaseNames {
  return {
    index,
    namespace: `c${index}`,
    group: `c${index}.example.com`,
    registration: `r${index}`,
    hookPath: `/c${index}`,
    controllerConfigMap: `flags-c${index}`,
  };
}

const CONDITIONS_ONLY_STATUS = {
  type: 'object',
  properties: {
    observedGeneration: { type: 'integer' },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        properties: Object.fromEntries(
          ['type', 'status', 'reason', 'message', 'lastTransitionTime'].map((field) => [
            field,
            { type: 'string' },
          ]),
        ),
      },
    },
  },
};

/** The case's CRD: a spec of any shape (so that a non-object spec reaches the renderer), and its status schema. */
export function caseCrd(planCase: PlanCase, names: CaseNames): KubeObject {
  const status =
    planCase.crdStatus === 'none'
      ? undefined
      : planCase.crdStatus === 'preserve'
        ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
        : CONDITIONS_ONLY_STATUS;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${names.group}` },
    spec: {
      group: names.group,
      scope: 'Namespaced',
      names: { kind: KIND, plural: PLURAL, singular: 'widget', listKind: `${KIND}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(status ? { subresources: { status: {} } } : {}),
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { 'x-kubernetes-preserve-unknown-fields': true },
                ...(status ? { status } : {}),
              },
            },
          },
        },
      ],
    },
  };
}

function withControllerConfigMap(value: unknown, name: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('FLAGS_CONFIGMAP', name));
}

export function caseRegistration(planCase: PlanCase, names: CaseNames, hookUrl: string): KubeObject {
  const { formFactor, hook } = planCase;
  return {
    apiVersion: REGISTRATION_API,
    kind: 'CRDRegistration',
    metadata: { name: names.registration },
    spec: {
      crd: `${PLURAL}.${names.group}`,
      workload: {
        fromImage: { repo: `registry.example.com/${names.registration}:1` },
        formFactor: { [formFactor.kind]: formFactor.block },
        parameterConfiguration: withControllerConfigMap(
          planCase.parameterConfiguration,
          names.controllerConfigMap,
        ),
        statusConfiguration: {
          ...(planCase.statusAdd.length > 0 ? { add: planCase.statusAdd } : {}),
          ...(planCase.conditionsFromHook.length > 0
            ? { conditionsFromHook: planCase.conditionsFromHook.map((type) => ({ type })) }
            : {}),
        },
      },
      ...(planCase.selector ? { selector: planCase.selector } : {}),
      ...(planCase.namespaceSelector ? { namespaceSelector: planCase.namespaceSelector } : {}),
      ...(hook
        ? {
            hook: {
              version: 'v1',
              address: { uri: `${hookUrl}${names.hookPath.slice(1)}` },
              // Generous: a call that times out on a busy machine would not be the answer the case scripted.
              timeout: 'PT30S',
              capabilities: hook.capabilities,
              ...(hook.failurePolicy ? { failurePolicy: hook.failurePolicy } : {}),
            },
          }
        : {}),
    },
  };
}

/** What the case's registration and instance read or meet: created before them. */
export function caseSurroundings(planCase: PlanCase, names: CaseNames): KubeObject[] {
  const { namespace } = names;
  const objects: KubeObject[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: planCase.namespaceLabels } },
  ];
  if (planCase.controllerConfigMap) {
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: names.controllerConfigMap, namespace: SCOBY_NAMESPACE },
      data: planCase.controllerConfigMap,
    });
  }
  if (planCase.sinkService) {
    objects.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'sink', namespace },
      spec: { ports: [{ port: 8080 }] },
    });
  }
  planCase.instances.forEach((instance, position) => {
    if (instance.squatter) objects.push(squatter(planCase, names, instanceName(position)));
  });
  return objects;
}

/** An object of no owner under the name of an instance's first child. */
function squatter(planCase: PlanCase, names: CaseNames, instance: string): KubeObject {
  const name = childName(names.registration, instance);
  const metadata = { name, namespace: names.namespace };
  if (planCase.formFactor.kind === 'knativeService') {
    return {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      metadata,
      spec: { template: { spec: { containers: [{ image: 'registry.example.com/other:1' }] } } },
    };
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      selector: { matchLabels: { app: 'other' } },
      template: {
        metadata: { labels: { app: 'other' } },
        spec: { containers: [{ name: 'other', image: 'registry.example.com/other:1' }] },
      },
    },
  };
}

export function caseInstance(instance: InstanceCase, names: CaseNames, position: number): KubeObject {
  return {
    apiVersion: `${names.group}/v1`,
    kind: KIND,
    metadata: {
      name: instanceName(position),
      namespace: names.namespace,
      ...(Object.keys(instance.labels).length > 0 ? { labels: instance.labels } : {}),
      ...(instance.finalizers.length > 0 ? { finalizers: instance.finalizers } : {}),
    },
    spec: instance.spec,
  };
}

function deeplyNested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let level = 0; level < depth; level++) value = { deeper: value };
  return value;
}

function changedChildren(
  sent: Record<string, KubeObject>,
  change: ChildrenChange,
  namespace: string,
): Record<string, unknown> {
  const children = structuredClone(sent);
  const [firstKey] = Object.keys(children);
  switch (change.kind) {
    case 'replicas': {
      const workload = children.deployment ?? children.ksvc;
      if (workload?.kind === 'Deployment')
        (workload.spec as Record<string, unknown>).replicas = change.replicas;
      return children;
    }
    case 'label':
      for (const child of Object.values(children))
        child.metadata.labels = { ...child.metadata.labels, 'example.com/hooked': change.value };
      return children;
    case 'extra-service': {
      const first = firstKey === undefined ? undefined : children[firstKey];
      const service: KubeObject =
        first?.kind === 'Deployment'
          ? {
              apiVersion: 'v1',
              kind: 'Service',
              metadata: { name: `${first.metadata.name ?? ''}-extra`, namespace },
              spec: { ports: [{ port: 9090 }] },
            }
          : {
              apiVersion: 'serving.knative.dev/v1',
              kind: 'Service',
              metadata: { name: `${first?.metadata.name ?? ''}-extra`, namespace },
              spec: { template: { spec: { containers: [{ image: 'registry.example.com/extra:1' }] } } },
            };
      return { ...children, extra: service };
    }
    case 'drop-first':
      if (firstKey !== undefined) delete children[firstKey];
      return children;
    case 'foreign-kind':
      return {
        ...children,
        extra: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra', namespace }, data: {} },
      };
  }
}

/** The hook's answer to one request of the case: a function of the request alone, so every call gets the same. */
export function hookReply(answer: HookAnswer, request: HookRequestRecord['body']): HookReply {
  if (request.phase === 'finalize') return { status: 204 };
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): HookReply => ({
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  switch (answer.kind) {
    case 'no-content':
      return { status: 204 };
    case 'success': {
      const object: Record<string, unknown> = { ...request.object };
      if (answer.status !== undefined) object.status = answer.status;
      if (answer.objectChanges === 'spec') object.spec = { changed: true };
      if (answer.objectChanges === 'labels')
        object.metadata = { ...request.object.metadata, labels: { changed: 'yes' } };
      const children = answer.children
        ? changedChildren(request.children ?? {}, answer.children, request.object.metadata.namespace ?? '')
        : undefined;
      return json(200, { object, ...(children ? { children } : {}) });
    }
    case 'garbage':
      return { status: 200, headers: { 'Content-Type': 'application/json' }, body: answer.body };
    case 'too-deep':
      return json(200, { object: { status: deeplyNested(150) } });
    case 'error': {
      const headers: Record<string, string> =
        answer.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(answer.retryAfterSeconds) };
      return typeof answer.body === 'string'
        ? { status: answer.status, headers: { 'Content-Type': 'text/plain', ...headers }, body: answer.body }
        : json(answer.status, answer.body, headers);
    }
    case 'reset':
      return 'reset';
  }
}

/** The status a written child reports for the second reconcile (none for a Service, which has no conditions). */
export function observedStatus(
  child: KubeObject,
  observed: ObservedCase,
): Record<string, unknown> | undefined {
  const type =
    child.kind === 'Deployment'
      ? 'Available'
      : child.apiVersion.startsWith('serving.knative.dev')
        ? 'Ready'
        : undefined;
  if (type === undefined) return undefined;
  const conditions =
    observed.condition === 'absent'
      ? []
      : [
          {
            type,
            status: observed.condition,
            reason: observed.reason,
            message: observed.message,
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ];
  return {
    observedGeneration: child.metadata.generation ?? 1,
    conditions,
    ...(type === 'Ready' && observed.url !== undefined ? { address: { url: observed.url } } : {}),
  };
}
