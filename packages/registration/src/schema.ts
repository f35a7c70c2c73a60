/**
 * The CRDRegistration v1alpha1 schema (registration.md §1–§3, §5): the single source of truth for the
 * CRD manifest (verbatim as openAPIV3Schema), the ajv schema checks and the user-facing TypeScript types
 * (src/types.generated.ts). It is written as a Kubernetes *structural* schema; schema-views.ts derives
 * the plain JSON Schema that ajv and the type generator understand.
 *
 * Value rules that have their own §4 messages (paths, names, one-of, hook fields, form-factor blocks)
 * are deliberately not encoded here beyond types, so that they are reported with those messages.
 */
import type { SchemaNode } from './schema-node.ts';

const str = (description?: string): SchemaNode =>
  description === undefined ? { type: 'string' } : { type: 'string', description };
const nonEmptyString: SchemaNode = { type: 'string', minLength: 1 };
const boolean: SchemaNode = { type: 'boolean' };
const integer: SchemaNode = { type: 'integer' };
const arrayOf = (items: SchemaNode, description?: string): SchemaNode =>
  description === undefined ? { type: 'array', items } : { type: 'array', items, description };

/** A literal ConfigMap/Secret key selector. */
const selectorRef: SchemaNode = {
  title: 'SelectorRef',
  type: 'object',
  required: ['name', 'key'],
  properties: { name: nonEmptyString, key: nonEmptyString, optional: boolean },
};

/** A selector whose name and key are spec paths of the instance (env.md §6.3). */
const specPathSelector: SchemaNode = {
  type: 'object',
  required: ['name', 'key'],
  properties: {
    name: str('Spec path of the object name.'),
    key: str('Spec path of the key.'),
    optional: boolean,
  },
};

const fieldSelector: SchemaNode = {
  type: 'object',
  required: ['fieldPath'],
  properties: { fieldPath: nonEmptyString, apiVersion: str() },
};

const volumeItem: SchemaNode = {
  title: 'VolumeItem',
  type: 'object',
  required: ['key', 'path'],
  properties: { key: str(), path: str(), mode: integer },
};

const mountFrom: SchemaNode = {
  title: 'MountFrom',
  type: 'object',
  description: 'Exactly one of configMapPath, secretPath.',
  properties: {
    configMapPath: {
      type: 'object',
      required: ['name'],
      properties: { name: str(), items: arrayOf(volumeItem), defaultMode: integer, optional: boolean },
    },
    secretPath: {
      type: 'object',
      required: ['secretName'],
      properties: { secretName: str(), items: arrayOf(volumeItem), defaultMode: integer, optional: boolean },
    },
  },
};

const fromSpecToEnv: SchemaNode = {
  title: 'FromSpecToEnv',
  type: 'object',
  required: ['path'],
  properties: {
    path: str('Spec path of the value.'),
    name: str('Explicit environment variable name.'),
    default: {
      type: 'object',
      description: 'Used when the path is absent. At most one of value, configMap, secret.',
      properties: { value: str(), configMap: selectorRef, secret: selectorRef },
    },
    defaultValue: str('Legacy alias of default.value.'),
    valueFrom: {
      type: 'object',
      description: 'At most one of configMapPath, secretPath, builtInFunc.',
      properties: {
        configMapPath: specPathSelector,
        secretPath: specPathSelector,
        builtInFunc: {
          type: 'object',
          required: ['name'],
          properties: { name: str('Only resolveAddress.'), args: arrayOf(str()) },
        },
      },
    },
  },
};

const fromSpecToVolume: SchemaNode = {
  title: 'FromSpecToVolume',
  type: 'object',
  required: ['path', 'name', 'mountPath', 'mountFrom'],
  properties: { path: str(), name: str(), mountPath: str(), mountFrom },
};

const addToEnv: SchemaNode = {
  title: 'AddToEnv',
  type: 'object',
  required: ['name'],
  description: 'Exactly one of value, valueFrom, valueFromControllerConfigMap.',
  properties: {
    name: str(),
    value: str(),
    valueFrom: {
      type: 'object',
      description: 'Exactly one of field (or its legacy alias fieldRef), configMap, secret.',
      properties: {
        field: fieldSelector,
        fieldRef: fieldSelector,
        configMap: selectorRef,
        secret: selectorRef,
      },
    },
    valueFromControllerConfigMap: selectorRef,
  },
};

const addToVolume: SchemaNode = {
  title: 'AddToVolume',
  type: 'object',
  required: ['name', 'mountPath', 'mountFrom'],
  properties: { name: str(), mountPath: str(), mountFrom },
};

const parameterConfiguration: SchemaNode = {
  title: 'ParameterConfiguration',
  type: 'object',
  description: 'How instance spec fields become environment variables and volumes.',
  properties: {
    global: { type: 'object', properties: { defaultPrefix: str('Prefix of generated variable names.') } },
    fromSpec: {
      type: 'object',
      properties: {
        skip: arrayOf({ type: 'object', required: ['path'], properties: { path: str() } }),
        toEnv: arrayOf(fromSpecToEnv),
        toVolume: arrayOf(fromSpecToVolume),
      },
    },
    add: { type: 'object', properties: { toEnv: arrayOf(addToEnv), toVolume: arrayOf(addToVolume) } },
  },
};

const statusConfiguration: SchemaNode = {
  title: 'StatusConfiguration',
  type: 'object',
  properties: {
    add: arrayOf({
      type: 'object',
      required: ['path', 'valueFrom'],
      properties: {
        path: str('Status path to fill.'),
        valueFrom: {
          type: 'object',
          required: ['path'],
          properties: { path: str('Spec path of the value.') },
        },
      },
    }),
    conditionsFromHook: arrayOf(
      { type: 'object', required: ['type'], properties: { type: str() } },
      'Extra instance condition types reported by the pre-reconcile hook.',
    ),
  },
};

const replicaCount: SchemaNode = { type: 'integer', minimum: 0 };
const portNumber: SchemaNode = { type: 'integer', minimum: 1, maximum: 65535 };

const deploymentFormFactor: SchemaNode = {
  title: 'DeploymentFormFactor',
  type: 'object',
  nullable: true,
  properties: {
    replicas: { ...replicaCount, description: 'Default 1.' },
    service: {
      type: 'object',
      required: ['port', 'targetPort'],
      properties: { port: portNumber, targetPort: portNumber },
    },
  },
};

const knativeServiceFormFactor: SchemaNode = {
  title: 'KnativeServiceFormFactor',
  type: 'object',
  nullable: true,
  properties: { minScale: replicaCount, maxScale: replicaCount, visibility: str() },
};

const formFactorBlock: SchemaNode = {
  title: 'FormFactorBlock',
  type: 'object',
  description:
    'At most one form factor; default a one-replica Deployment. Other keys configure plugin form factors.',
  'x-kubernetes-preserve-unknown-fields': true,
  properties: { deployment: deploymentFormFactor, knativeService: knativeServiceFormFactor },
};

const destination: SchemaNode = {
  title: 'Destination',
  type: 'object',
  description: 'At least one of ref, uri.',
  properties: {
    ref: {
      type: 'object',
      properties: { apiVersion: str(), kind: str(), name: str(), namespace: str() },
    },
    uri: str(),
  },
};

const hookSpec: SchemaNode = {
  title: 'HookSpec',
  type: 'object',
  required: ['version', 'address'],
  properties: {
    version: { 'x-kubernetes-int-or-string': true, description: 'Hooks API version: "v1", "1" or 1.' },
    address: destination,
    timeout: str('ISO 8601 duration, default PT15S.'),
    capabilities: arrayOf(str(), 'pre-reconcile and/or finalize.'),
  },
};

const registrationSpec: SchemaNode = {
  title: 'CRDRegistrationSpec',
  type: 'object',
  required: ['crd', 'workload'],
  properties: {
    crd: { ...nonEmptyString, description: 'Name of the namespaced CRD to control, <plural>.<group>.' },
    workload: {
      type: 'object',
      required: ['fromImage'],
      properties: {
        fromImage: {
          type: 'object',
          required: ['repo'],
          properties: { repo: { ...nonEmptyString, description: 'Image of the adapter container.' } },
        },
        formFactor: formFactorBlock,
        parameterConfiguration,
        statusConfiguration,
      },
    },
    hook: hookSpec,
  },
};

const registrationStatus: SchemaNode = {
  title: 'CRDRegistrationStatus',
  type: 'object',
  properties: {
    observedGeneration: integer,
    annotations: { type: 'object', additionalProperties: str() },
    conditions: arrayOf({
      type: 'object',
      required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
      properties: {
        type: str(),
        status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
        reason: str(),
        message: str(),
        lastTransitionTime: { type: 'string', format: 'date-time' },
      },
    }),
  },
};

/** openAPIV3Schema of CRDRegistration v1alpha1. */
export const SCHEMA: SchemaNode = {
  type: 'object',
  description: 'Makes Scoby the controller of an existing namespaced CRD.',
  required: ['spec'],
  properties: {
    apiVersion: str(),
    kind: str(),
    metadata: { type: 'object' },
    spec: registrationSpec,
    status: registrationStatus,
  },
};
