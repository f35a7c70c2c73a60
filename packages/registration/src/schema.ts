/**
 * The CRDRegistration v1alpha1 schema (docs/spec/registration.md §1–§3, §5): the single source of truth for the
 * CRD manifest (verbatim as openAPIV3Schema), the ajv schema checks and the user-facing TypeScript types
 * (src/types.generated.ts). It is written as a Kubernetes *structural* schema; schema-views.ts derives
 * the plain JSON Schema that ajv and the type generator understand.
 *
 * Value rules that have their own §4 messages (paths, names, one-of, hook fields, form-factor blocks)
 * are deliberately not encoded here beyond types, so that they are reported with those messages. Closed
 * sets (hook version and capabilities, built-in functions) are `enum`s of the CRD too, taken from the
 * validation's own lists, so the API server refuses an unknown value at `kubectl apply` (closed-set.ts).
 */
import { builtInBlockNodes } from './built-in-blocks.ts';
import { closedSet } from './closed-set.ts';
import { describedUse } from './described-use.ts';
import { BUILT_IN_FUNCTIONS } from './validation/choice-checks.ts';
import { CAPABILITY_SPELLINGS, FAILURE_POLICIES, SUPPORTED_HOOK_VERSIONS } from './validation/hook-checks.ts';
import { HOOK_PHASES } from './hook-capabilities.generated.ts';
import { SELECTOR_OPERATORS } from './label-selector.ts';
import type { SchemaNode } from './schema-node.ts';

// Every field carries a description: `kubectl explain crdregistration.spec --recursive` and the
// generated reference (docs/reference) are written from them.
const str = (description: string): SchemaNode => ({ type: 'string', description });
const nonEmptyString = (description: string): SchemaNode => ({ type: 'string', minLength: 1, description });
const boolean = (description: string): SchemaNode => ({ type: 'boolean', description });
const integer = (description: string): SchemaNode => ({ type: 'integer', description });
const arrayOf = (items: SchemaNode, description: string): SchemaNode => ({
  type: 'array',
  items,
  description,
});

const OPTIONAL_REFERENCE =
  'true: a missing object or key is not an error (the variable or volume is omitted, as Kubernetes does). Copied only when written.';

/** A literal ConfigMap/Secret key selector. */
const selectorRef: SchemaNode = {
  title: 'SelectorRef',
  type: 'object',
  description: 'A key of a ConfigMap or Secret, named literally.',
  required: ['name', 'key'],
  properties: {
    name: nonEmptyString('Name of the ConfigMap or Secret.'),
    key: nonEmptyString('Key in its data.'),
    optional: boolean(OPTIONAL_REFERENCE),
  },
};

/** A selector whose name and key are spec paths of the instance (docs/spec/env.md §6.3). */
const specPathSelector: SchemaNode = {
  type: 'object',
  description: 'A key of an object in the instance namespace whose name and key the instance spec holds.',
  required: ['name', 'key'],
  properties: {
    name: str('Spec path of the object name (spec.x.y); the instance must hold a non-empty string there.'),
    key: str('Spec path of the key (spec.x.y); the instance must hold a non-empty string there.'),
    optional: boolean(OPTIONAL_REFERENCE),
  },
};

const fieldSelector: SchemaNode = {
  type: 'object',
  description: 'A field of the pod, as in a container env valueFrom.fieldRef.',
  required: ['fieldPath'],
  properties: {
    fieldPath: nonEmptyString('Path of the pod field, e.g. metadata.namespace or status.podIP.'),
    apiVersion: str('Version of the schema fieldPath is written in; Kubernetes defaults it to v1.'),
  },
};

const volumeItem: SchemaNode = {
  title: 'VolumeItem',
  type: 'object',
  description: 'One key projected to a file; with items only the listed keys are projected.',
  required: ['key', 'path'],
  properties: {
    key: str(
      'Key of the ConfigMap or Secret: a spec path holding the key under fromSpec.toVolume, the key itself under add.toVolume.',
    ),
    path: str('Relative file path of the key inside the mount.'),
    mode: integer('File mode bits of this file (0-0777 octal, given in decimal in JSON).'),
  },
};

const projectedSource = (nameField: string, kind: string): SchemaNode => ({
  type: 'object',
  description: `Mount a ${kind}, as a pod ${kind === 'ConfigMap' ? 'configMap' : 'secret'} volume.`,
  required: [nameField],
  properties: {
    [nameField]: str(
      `Name of the ${kind}: a spec path holding the name under fromSpec.toVolume, the name itself under add.toVolume.`,
    ),
    items: arrayOf(volumeItem, 'Keys to project; absent or empty: every key, one file each.'),
    defaultMode: integer('Default file mode bits (0-0777 octal, given in decimal in JSON).'),
    optional: boolean(OPTIONAL_REFERENCE),
  },
});

const mountFrom: SchemaNode = {
  title: 'MountFrom',
  type: 'object',
  description: 'Where the volume comes from: exactly one of configMapPath, secretPath.',
  properties: {
    configMapPath: projectedSource('name', 'ConfigMap'),
    secretPath: projectedSource('secretName', 'Secret'),
  },
};

const fromSpecToEnv: SchemaNode = {
  title: 'FromSpecToEnv',
  type: 'object',
  description:
    'One environment variable for a spec path; the path and everything below it is not rendered by default.',
  required: ['path'],
  properties: {
    path: str('Spec path of the value (spec.x.y; $.spec.x.y and .spec.x.y are the same path).'),
    name: str(
      'Explicit environment variable name, used verbatim (no prefix). Default: the generated name of path.',
    ),
    default: {
      type: 'object',
      description: 'Used only when the path is absent or null. At most one of value, configMap, secret.',
      properties: {
        value: str('A literal value; $(VAR) references are expanded by Kubernetes.'),
        configMap: describedUse(selectorRef, 'A key of a ConfigMap in the instance namespace.'),
        secret: describedUse(selectorRef, 'A key of a Secret in the instance namespace.'),
      },
    },
    defaultValue: str('Legacy alias of default.value; setting both is a validation error.'),
    valueFrom: {
      type: 'object',
      description:
        'How a present value is turned into the variable. At most one of configMapPath, secretPath, builtInFunc.',
      properties: {
        configMapPath: describedUse(
          specPathSelector,
          'The variable reads a ConfigMap key (configMapKeyRef) whose name and key the spec holds.',
        ),
        secretPath: describedUse(
          specPathSelector,
          'The variable reads a Secret key (secretKeyRef) whose name and key the spec holds.',
        ),
        builtInFunc: {
          type: 'object',
          description: 'A function of the value at path.',
          required: ['name'],
          properties: {
            name: closedSet(
              str(
                'resolveAddress (the only function): the value is a destination {ref, uri}, the variable its URL.',
              ),
              BUILT_IN_FUNCTIONS,
            ),
            args: arrayOf(str('An argument.'), 'Accepted and ignored.'),
          },
        },
      },
    },
  },
};

const fromSpecToVolume: SchemaNode = {
  title: 'FromSpecToVolume',
  type: 'object',
  description:
    'A volume mounted on the adapter container when the spec path is present; the path renders no variables.',
  required: ['path', 'name', 'mountPath', 'mountFrom'],
  properties: {
    path: str('Spec path that must be present for the volume to exist.'),
    name: str('Pod volume name, unique across fromSpec.toVolume and add.toVolume.'),
    mountPath: str('Where the adapter container mounts the volume.'),
    mountFrom,
  },
};

const addToEnv: SchemaNode = {
  title: 'AddToEnv',
  type: 'object',
  required: ['name'],
  description:
    'A variable added to every instance, also one without spec. Exactly one of value, valueFrom, valueFromControllerConfigMap.',
  properties: {
    name: str('Variable name, used verbatim (no prefix).'),
    value: str('A literal value (also ""); $(VAR) references are expanded by Kubernetes.'),
    valueFrom: {
      type: 'object',
      description:
        'A value Kubernetes fills in. Exactly one of field (or its legacy alias fieldRef), configMap, secret.',
      properties: {
        field: describedUse(fieldSelector, 'A field of the pod (fieldRef).'),
        fieldRef: describedUse(fieldSelector, 'Legacy alias of field; setting both is a validation error.'),
        configMap: describedUse(
          selectorRef,
          'A key of a ConfigMap in the instance namespace (configMapKeyRef).',
        ),
        secret: describedUse(selectorRef, 'A key of a Secret in the instance namespace (secretKeyRef).'),
      },
    },
    valueFromControllerConfigMap: describedUse(
      selectorRef,
      "The value of a key of a ConfigMap in Scoby's own namespace (SCOBY_NAMESPACE), read by the controller; a change reconciles every instance again.",
    ),
  },
};

const addToVolume: SchemaNode = {
  title: 'AddToVolume',
  type: 'object',
  description: 'A volume mounted on the adapter container of every instance; names and keys are literal.',
  required: ['name', 'mountPath', 'mountFrom'],
  properties: {
    name: str('Pod volume name, unique across fromSpec.toVolume and add.toVolume.'),
    mountPath: str('Where the adapter container mounts the volume.'),
    mountFrom,
  },
};

const parameterConfiguration: SchemaNode = {
  title: 'ParameterConfiguration',
  type: 'object',
  description:
    'How instance spec fields become environment variables and volumes of the adapter container. Without it every spec value becomes a variable named after its path (spec.maxBytes: MAXBYTES).',
  properties: {
    global: {
      type: 'object',
      description: 'Settings for every generated name.',
      properties: {
        defaultPrefix: str(
          'Prepended verbatim to generated variable names (not to explicit names), e.g. KAFKA_ gives KAFKA_TOPIC.',
        ),
      },
    },
    fromSpec: {
      type: 'object',
      description: 'Instructions for spec paths; skip beats toVolume, which beats toEnv.',
      properties: {
        skip: arrayOf(
          {
            type: 'object',
            description: 'A path to leave out.',
            required: ['path'],
            properties: { path: str('Spec path; nothing is rendered for it or below it.') },
          },
          'Spec paths that render nothing.',
        ),
        toEnv: arrayOf(
          fromSpecToEnv,
          'Spec paths rendered as one variable each, with a name, default or source.',
        ),
        toVolume: arrayOf(fromSpecToVolume, 'Spec paths that add a volume when present.'),
      },
    },
    add: {
      type: 'object',
      description: 'Variables and volumes added to every instance, independent of its spec.',
      properties: {
        toEnv: arrayOf(addToEnv, 'Variables added to every instance.'),
        toVolume: arrayOf(addToVolume, 'Volumes added to every instance.'),
      },
    },
  },
};

const statusConfiguration: SchemaNode = {
  title: 'StatusConfiguration',
  type: 'object',
  description: 'What Scoby writes into instance status besides its conditions.',
  properties: {
    add: arrayOf(
      {
        type: 'object',
        description: 'Copy one rendered spec value into the instance status.',
        required: ['path', 'valueFrom'],
        properties: {
          path: str(
            'Status path to fill (status.x.y), not status.conditions or status.observedGeneration; it must be allowed by the status schema of the CRD.',
          ),
          valueFrom: {
            type: 'object',
            description: 'Where the value comes from.',
            required: ['path'],
            properties: {
              path: str(
                'Spec path whose rendered literal value is copied as a string; absent or rendered from a ConfigMap or Secret: the status field is removed.',
              ),
            },
          },
        },
      },
      'Rendered spec values copied into instance status, in order.',
    ),
    conditionsFromHook: arrayOf(
      {
        type: 'object',
        description: 'One condition type the hook sets.',
        required: ['type'],
        properties: {
          type: str(
            'Condition type, e.g. QuotaChecked; not Ready or a condition type of the form factor, no repeats.',
          ),
        },
      },
      'Extra instance condition types set by the pre-reconcile hook; Ready waits for them. Used only when the hook has the pre-reconcile capability.',
    ),
  },
};

const formFactorBlock: SchemaNode = {
  title: 'FormFactorBlock',
  type: 'object',
  description:
    'How instances run: at most one form factor; default a one-replica Deployment without Service. Other keys configure plugin form factors, validated by the JSON Schema of the plugin.',
  'x-kubernetes-preserve-unknown-fields': true,
  // Each built-in form factor's own blockSchema (built-in-blocks.ts).
  properties: builtInBlockNodes(),
};

const destination: SchemaNode = {
  title: 'Destination',
  type: 'object',
  description:
    'Where the hook listens: at least one of ref, uri. The resolved URL is published in status.annotations.hookURL.',
  properties: {
    ref: {
      type: 'object',
      description:
        'An object giving the host: a v1 Service (http://<name>.<namespace>.svc.<cluster domain>) or an addressable with status.address.url. All four fields are required.',
      properties: {
        apiVersion: str('API version of the object, e.g. v1 or serving.knative.dev/v1.'),
        kind: str('Kind of the object, e.g. Service.'),
        name: str('Name of the object.'),
        namespace: str('Namespace of the object (required: a CRDRegistration is cluster scoped).'),
      },
    },
    uri: str(
      'An absolute http or https URI; with ref it must have no host and sets scheme, port, path and query, e.g. http://:8080/v1.',
    ),
  },
};

const hookSpec: SchemaNode = {
  title: 'HookSpec',
  type: 'object',
  description:
    'Code Scoby calls before writing the children of an instance (pre-reconcile) and before letting a deleted instance go (finalize): an HTTP service (address) or a module loaded in the controller (module); exactly one of them.',
  required: ['version'],
  properties: {
    version: closedSet(
      { 'x-kubernetes-int-or-string': true, description: 'Hooks API version: "v1", "1" or 1.' },
      SUPPORTED_HOOK_VERSIONS,
    ),
    address: destination,
    module: nonEmptyString(
      'An in-process hook instead of address: the name of a module the operator allowed with --hook-module (SCOBY_HOOK_MODULES, chart value hookModules), exactly as given there, e.g. @acme/mailer-hook. Its default export holds the hook handlers; it runs inside the controller with its credentials.',
    ),
    timeout: str(
      'Bound of one call, connection and whole answer included: a positive ISO 8601 duration, e.g. PT5S. Default PT15S.',
    ),
    capabilities: arrayOf(
      closedSet(str(`${capabilitiesDescription()}.`), Object.keys(CAPABILITY_SPELLINGS)),
      'Phases the hook is called in; with none the hook is never called.',
    ),
    failurePolicy: closedSet(
      str(
        'What an unreachable, timed-out or 5xx pre-reconcile call does: Fail (default) stops the reconcile with Ready=False; Ignore goes on without the hook (HookSucceeded=False, not part of Ready). Finalize is gated either way.',
      ),
      FAILURE_POLICIES,
    ),
  },
};

/** A metav1.LabelSelector (docs/spec/registration.md §3.6). */
const labelSelector = (title: string, description: string): SchemaNode => ({
  title,
  type: 'object',
  description,
  properties: {
    matchLabels: {
      type: 'object',
      description: 'Labels that must all be present with these values.',
      additionalProperties: str('A label value.'),
    },
    matchExpressions: arrayOf(
      {
        type: 'object',
        description: 'A requirement on one label.',
        required: ['key', 'operator'],
        properties: {
          key: str('The label key, a qualified name such as track or example.com/track.'),
          operator: closedSet(str('In, NotIn, Exists or DoesNotExist.'), SELECTOR_OPERATORS),
          values: arrayOf(
            str('A label value.'),
            'Non-empty for In and NotIn; must be empty for Exists and DoesNotExist.',
          ),
        },
      },
      'Requirements that must all hold.',
    ),
  },
});

const registrationSpec: SchemaNode = {
  title: 'CRDRegistrationSpec',
  type: 'object',
  description: 'The CRD Scoby controls, the workload it runs for each instance, and an optional hook.',
  required: ['crd', 'workload'],
  properties: {
    crd: nonEmptyString(
      'Name of the namespaced CRD to control, <plural>.<group>; it may be created after the registration.',
    ),
    workload: {
      type: 'object',
      description: 'What runs for each instance: image, form factor, environment and status.',
      required: ['fromImage'],
      properties: {
        fromImage: {
          type: 'object',
          description: 'The container image.',
          required: ['repo'],
          properties: {
            repo: nonEmptyString('Image of the adapter container, e.g. registry.example.com/mailer:1.4.2.'),
          },
        },
        formFactor: formFactorBlock,
        parameterConfiguration,
        statusConfiguration,
      },
    },
    hook: hookSpec,
    selector: labelSelector(
      'InstanceSelector',
      'The instances this registration serves, by their labels. Absent or empty: every instance. With several registrations for the CRD, each instance is served by the oldest whose selection matches it.',
    ),
    namespaceSelector: labelSelector(
      'NamespaceSelector',
      'The instances this registration serves, by the labels of their Namespace. Absent or empty: every namespace. Scoby reads Namespaces (get, list, watch) to evaluate it.',
    ),
    resyncPeriod: str(
      'Reconcile every instance again this long after its last reconcile (jitter ±10 %): an ISO 8601 duration of at least PT30S, e.g. PT10M. Default: no periodic reconcile of its own.',
    ),
  },
};

const registrationStatus: SchemaNode = {
  title: 'CRDRegistrationStatus',
  type: 'object',
  description: 'Written by Scoby.',
  properties: {
    observedGeneration: integer('metadata.generation of the spec this status describes.'),
    annotations: {
      type: 'object',
      description: 'hookURL: the resolved hook URL while spec.hook is set.',
      additionalProperties: str('An annotation value.'),
    },
    writeVerbs: {
      type: 'object',
      description:
        "The verbs the registration's controller writes instances with, while its permission check passes: patch where granted, else update.",
      properties: {
        status: {
          type: 'string',
          enum: ['patch', 'update'],
          description: 'The verb on <resource>/status; absent without a status subresource.',
        },
        finalizers: {
          type: 'string',
          enum: ['patch', 'update'],
          description:
            "The verb on <resource> for Scoby's finalizer; absent when neither is granted (a registration without a finalize hook needs none).",
        },
      },
    },
    instances: {
      type: 'object',
      description:
        'Instance counts of a registration sharing its CRD with another running one (selectors, registration.md §6.8); absent otherwise.',
      properties: {
        served: integer(
          'Instances this registration serves: its selection matches and no older registration serves them.',
        ),
        servedByOthers: integer('Instances its selection matches that an older registration serves instead.'),
      },
    },
    conditions: arrayOf(
      {
        type: 'object',
        description: 'A condition.',
        required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
        properties: {
          type: str('CRDExists, ControllerReady or Ready.'),
          status: {
            type: 'string',
            enum: ['True', 'False', 'Unknown'],
            description: 'True, False or Unknown.',
          },
          reason: str('Machine-readable reason, e.g. CONDITIONSOK, CRDERROR or InvalidFormFactor.'),
          message: str('What is wrong, with the field path; "" when nothing is.'),
          lastTransitionTime: {
            type: 'string',
            format: 'date-time',
            description: 'When status last changed (RFC 3339, whole seconds).',
          },
        },
      },
      'CRDExists, ControllerReady and Ready, sorted by type.',
    ),
  },
};

/** openAPIV3Schema of CRDRegistration v1alpha1. */
export const SCHEMA: SchemaNode = {
  type: 'object',
  description: 'Makes Scoby the controller of an existing namespaced CRD.',
  required: ['spec'],
  properties: {
    apiVersion: str('scoby.triggermesh.io/v1alpha1.'),
    kind: str('CRDRegistration.'),
    // kube-apiserver refuses a CRD whose root metadata schema says more than its type (a description too).
    metadata: { type: 'object' },
    spec: registrationSpec,
    status: registrationStatus,
  },
};

/** "pre-reconcile or finalize (finalization is an alias of finalize)", from the phase table. */
function capabilitiesDescription(): string {
  const aliases = Object.entries(CAPABILITY_SPELLINGS)
    .filter(([spelling, phase]) => spelling !== phase)
    .map(([spelling, phase]) => `${spelling} is an alias of ${phase}`);
  const phases = [HOOK_PHASES.slice(0, -1).join(', '), HOOK_PHASES.at(-1)].filter(Boolean).join(' or ');
  return aliases.length === 0 ? phases : `${phases} (${aliases.join('; ')})`;
}
