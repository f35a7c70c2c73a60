/* Generated from src/schema.ts by scripts/generate.ts (npm run generate). Do not edit. */

/**
 * The CRD Scoby controls, the workload it runs for each instance, and an optional hook.
 */
export interface CRDRegistrationSpec {
  /**
   * Name of the namespaced CRD to control, <plural>.<group>; it may be created after the registration.
   */
  crd: string;
  /**
   * What runs for each instance: image, form factor, environment and status.
   */
  workload: {
    /**
     * The container image.
     */
    fromImage: {
      /**
       * Image of the adapter container, e.g. registry.example.com/mailer:1.4.2.
       */
      repo: string;
    };
    formFactor?: FormFactorBlock;
    parameterConfiguration?: ParameterConfiguration;
    statusConfiguration?: StatusConfiguration;
  };
  hook?: HookSpec;
  selector?: InstanceSelector;
  namespaceSelector?: NamespaceSelector;
  /**
   * Reconcile every instance again this long after its last reconcile (jitter ±10 %): an ISO 8601 duration of at least PT30S, e.g. PT10M. Default: no periodic reconcile of its own.
   */
  resyncPeriod?: string;
}
/**
 * How instances run: at most one form factor; default a one-replica Deployment without Service. Other keys configure plugin form factors, validated by the JSON Schema of the plugin.
 */
export interface FormFactorBlock {
  deployment?: DeploymentFormFactor | null;
  knativeService?: KnativeServiceFormFactor | null;
  [k: string]: unknown;
}
/**
 * Run each instance as a Deployment named after it, with an optional Service.
 */
export interface DeploymentFormFactor {
  /**
   * Replicas of the Deployment (0 or more). Default 1.
   */
  replicas?: number;
  /**
   * Also create a ClusterIP Service for the Deployment; its URL becomes status.address.url.
   */
  service?: {
    /**
     * Port the Service listens on (1-65535).
     */
    port: number;
    /**
     * Container port the Service forwards to (1-65535).
     */
    targetPort: number;
  };
}
/**
 * Run each instance as a Knative Service (needs Knative Serving); hooks see the form factor as ksvc.
 */
export interface KnativeServiceFormFactor {
  /**
   * Minimum number of pods (autoscaling.knative.dev/min-scale).
   */
  minScale?: number;
  /**
   * Maximum number of pods (autoscaling.knative.dev/max-scale).
   */
  maxScale?: number;
  /**
   * Copied to the networking.knative.dev/visibility label: cluster-local or public.
   */
  visibility?: string;
}
/**
 * How instance spec fields become environment variables and volumes of the adapter container. Without it every spec value becomes a variable named after its path (spec.maxBytes: MAXBYTES).
 */
export interface ParameterConfiguration {
  /**
   * Settings for every generated name.
   */
  global?: {
    /**
     * Prepended verbatim to generated variable names (not to explicit names), e.g. KAFKA_ gives KAFKA_TOPIC.
     */
    defaultPrefix?: string;
  };
  /**
   * Instructions for spec paths; skip beats toVolume, which beats toEnv.
   */
  fromSpec?: {
    /**
     * Spec paths that render nothing.
     *
     * Items: A path to leave out.
     */
    skip?: {
      /**
       * Spec path; nothing is rendered for it or below it.
       */
      path: string;
    }[];
    /**
     * Spec paths rendered as one variable each, with a name, default or source.
     */
    toEnv?: FromSpecToEnv[];
    /**
     * Spec paths that add a volume when present.
     */
    toVolume?: FromSpecToVolume[];
  };
  /**
   * Variables and volumes added to every instance, independent of its spec.
   */
  add?: {
    /**
     * Variables added to every instance.
     */
    toEnv?: AddToEnv[];
    /**
     * Volumes added to every instance.
     */
    toVolume?: AddToVolume[];
  };
}
/**
 * One environment variable for a spec path; the path and everything below it is not rendered by default.
 */
export interface FromSpecToEnv {
  /**
   * Spec path of the value (spec.x.y; $.spec.x.y and .spec.x.y are the same path).
   */
  path: string;
  /**
   * Explicit environment variable name, used verbatim (no prefix). Default: the generated name of path.
   */
  name?: string;
  /**
   * Used only when the path is absent or null. At most one of value, configMap, secret.
   */
  default?: {
    /**
     * A literal value; $(VAR) references are expanded by Kubernetes.
     */
    value?: string;
    configMap?: SelectorRef;
    secret?: SelectorRef;
  };
  /**
   * Legacy alias of default.value; setting both is a validation error.
   */
  defaultValue?: string;
  /**
   * How a present value is turned into the variable. At most one of configMapPath, secretPath, builtInFunc.
   */
  valueFrom?: {
    /**
     * A key of an object in the instance namespace whose name and key the instance spec holds.
     */
    configMapPath?: {
      /**
       * Spec path of the object name (spec.x.y); the instance must hold a non-empty string there.
       */
      name: string;
      /**
       * Spec path of the key (spec.x.y); the instance must hold a non-empty string there.
       */
      key: string;
      /**
       * true: a missing object or key is not an error (the variable or volume is omitted, as Kubernetes does). Copied only when written.
       */
      optional?: boolean;
    };
    /**
     * A key of an object in the instance namespace whose name and key the instance spec holds.
     */
    secretPath?: {
      /**
       * Spec path of the object name (spec.x.y); the instance must hold a non-empty string there.
       */
      name: string;
      /**
       * Spec path of the key (spec.x.y); the instance must hold a non-empty string there.
       */
      key: string;
      /**
       * true: a missing object or key is not an error (the variable or volume is omitted, as Kubernetes does). Copied only when written.
       */
      optional?: boolean;
    };
    /**
     * A function of the value at path.
     */
    builtInFunc?: {
      /**
       * resolveAddress (the only function): the value is a destination {ref, uri}, the variable its URL.
       */
      name: string;
      /**
       * Accepted and ignored.
       *
       * Items: An argument.
       */
      args?: string[];
    };
  };
}
/**
 * A key of a ConfigMap or Secret, named literally.
 */
export interface SelectorRef {
  /**
   * Name of the ConfigMap or Secret.
   */
  name: string;
  /**
   * Key in its data.
   */
  key: string;
  /**
   * true: a missing object or key is not an error (the variable or volume is omitted, as Kubernetes does). Copied only when written.
   */
  optional?: boolean;
}
/**
 * A volume mounted on the adapter container when the spec path is present; the path renders no variables.
 */
export interface FromSpecToVolume {
  /**
   * Spec path that must be present for the volume to exist.
   */
  path: string;
  /**
   * Pod volume name, unique across fromSpec.toVolume and add.toVolume.
   */
  name: string;
  /**
   * Where the adapter container mounts the volume.
   */
  mountPath: string;
  mountFrom: MountFrom;
}
/**
 * Where the volume comes from: exactly one of configMapPath, secretPath.
 */
export interface MountFrom {
  /**
   * Mount a ConfigMap, as a pod configMap volume.
   */
  configMapPath?: {
    /**
     * Name of the ConfigMap: a spec path holding the name under fromSpec.toVolume, the name itself under add.toVolume.
     */
    name: string;
    /**
     * Keys to project; absent or empty: every key, one file each.
     */
    items?: VolumeItem[];
    /**
     * Default file mode bits (0-0777 octal, given in decimal in JSON).
     */
    defaultMode?: number;
    /**
     * true: a missing object or key is not an error (the variable or volume is omitted, as Kubernetes does). Copied only when written.
     */
    optional?: boolean;
  };
  /**
   * Mount a Secret, as a pod secret volume.
   */
  secretPath?: {
    /**
     * Name of the Secret: a spec path holding the name under fromSpec.toVolume, the name itself under add.toVolume.
     */
    secretName: string;
    /**
     * Keys to project; absent or empty: every key, one file each.
     */
    items?: VolumeItem[];
    /**
     * Default file mode bits (0-0777 octal, given in decimal in JSON).
     */
    defaultMode?: number;
    /**
     * true: a missing object or key is not an error (the variable or volume is omitted, as Kubernetes does). Copied only when written.
     */
    optional?: boolean;
  };
}
/**
 * One key projected to a file; with items only the listed keys are projected.
 */
export interface VolumeItem {
  /**
   * Key of the ConfigMap or Secret: a spec path holding the key under fromSpec.toVolume, the key itself under add.toVolume.
   */
  key: string;
  /**
   * Relative file path of the key inside the mount.
   */
  path: string;
  /**
   * File mode bits of this file (0-0777 octal, given in decimal in JSON).
   */
  mode?: number;
}
/**
 * A variable added to every instance, also one without spec. Exactly one of value, valueFrom, valueFromControllerConfigMap.
 */
export interface AddToEnv {
  /**
   * Variable name, used verbatim (no prefix).
   */
  name: string;
  /**
   * A literal value (also ""); $(VAR) references are expanded by Kubernetes.
   */
  value?: string;
  /**
   * A value Kubernetes fills in. Exactly one of field (or its legacy alias fieldRef), configMap, secret.
   */
  valueFrom?: {
    /**
     * A field of the pod, as in a container env valueFrom.fieldRef.
     */
    field?: {
      /**
       * Path of the pod field, e.g. metadata.namespace or status.podIP.
       */
      fieldPath: string;
      /**
       * Version of the schema fieldPath is written in; Kubernetes defaults it to v1.
       */
      apiVersion?: string;
    };
    /**
     * A field of the pod, as in a container env valueFrom.fieldRef.
     */
    fieldRef?: {
      /**
       * Path of the pod field, e.g. metadata.namespace or status.podIP.
       */
      fieldPath: string;
      /**
       * Version of the schema fieldPath is written in; Kubernetes defaults it to v1.
       */
      apiVersion?: string;
    };
    configMap?: SelectorRef;
    secret?: SelectorRef;
  };
  valueFromControllerConfigMap?: SelectorRef;
}
/**
 * A volume mounted on the adapter container of every instance; names and keys are literal.
 */
export interface AddToVolume {
  /**
   * Pod volume name, unique across fromSpec.toVolume and add.toVolume.
   */
  name: string;
  /**
   * Where the adapter container mounts the volume.
   */
  mountPath: string;
  mountFrom: MountFrom;
}
/**
 * What Scoby writes into instance status besides its conditions.
 */
export interface StatusConfiguration {
  /**
   * Rendered spec values copied into instance status, in order.
   *
   * Items: Copy one rendered spec value into the instance status.
   */
  add?: {
    /**
     * Status path to fill (status.x.y), not status.conditions or status.observedGeneration; it must be allowed by the status schema of the CRD.
     */
    path: string;
    /**
     * Where the value comes from.
     */
    valueFrom: {
      /**
       * Spec path whose rendered literal value is copied as a string; absent or rendered from a ConfigMap or Secret: the status field is removed.
       */
      path: string;
    };
  }[];
  /**
   * Extra instance condition types set by the pre-reconcile hook; Ready waits for them. Used only when the hook has the pre-reconcile capability.
   *
   * Items: One condition type the hook sets.
   */
  conditionsFromHook?: {
    /**
     * Condition type, e.g. QuotaChecked; not Ready or a condition type of the form factor, no repeats.
     */
    type: string;
  }[];
}
/**
 * Code Scoby calls before writing the children of an instance (pre-reconcile) and before letting a deleted instance go (finalize): an HTTP service (address) or a module loaded in the controller (module); exactly one of them.
 */
export interface HookSpec {
  /**
   * Hooks API version: "v1", "1" or 1.
   */
  version: number | string;
  address?: Destination;
  /**
   * An in-process hook instead of address: the name of a module the operator allowed with --hook-module (SCOBY_HOOK_MODULES, chart value hookModules), exactly as given there, e.g. @acme/mailer-hook. Its default export holds the hook handlers; it runs inside the controller with its credentials.
   */
  module?: string;
  /**
   * Bound of one call, connection and whole answer included: a positive ISO 8601 duration, e.g. PT5S. Default PT15S.
   */
  timeout?: string;
  /**
   * Phases the hook is called in; with none the hook is never called.
   *
   * Items: pre-reconcile or finalize (finalization is an alias of finalize).
   */
  capabilities?: string[];
  /**
   * What an unreachable, timed-out or 5xx pre-reconcile call does: Fail (default) stops the reconcile with Ready=False; Ignore goes on without the hook (HookSucceeded=False, not part of Ready). Finalize is gated either way.
   */
  failurePolicy?: string;
}
/**
 * Where the hook listens: at least one of ref, uri. The resolved URL is published in status.annotations.hookURL.
 */
export interface Destination {
  /**
   * An object giving the host: a v1 Service (http://<name>.<namespace>.svc.<cluster domain>) or an addressable with status.address.url. All four fields are required.
   */
  ref?: {
    /**
     * API version of the object, e.g. v1 or serving.knative.dev/v1.
     */
    apiVersion?: string;
    /**
     * Kind of the object, e.g. Service.
     */
    kind?: string;
    /**
     * Name of the object.
     */
    name?: string;
    /**
     * Namespace of the object (required: a CRDRegistration is cluster scoped).
     */
    namespace?: string;
  };
  /**
   * An absolute http or https URI; with ref it must have no host and sets scheme, port, path and query, e.g. http://:8080/v1.
   */
  uri?: string;
}
/**
 * The instances this registration serves, by their labels. Absent or empty: every instance. With several registrations for the CRD, each instance is served by the oldest whose selection matches it.
 */
export interface InstanceSelector {
  /**
   * Labels that must all be present with these values.
   */
  matchLabels?: {
    /**
     * A label value.
     */
    [k: string]: string;
  };
  /**
   * Requirements that must all hold.
   *
   * Items: A requirement on one label.
   */
  matchExpressions?: {
    /**
     * The label key, a qualified name such as track or example.com/track.
     */
    key: string;
    /**
     * In, NotIn, Exists or DoesNotExist.
     */
    operator: string;
    /**
     * Non-empty for In and NotIn; must be empty for Exists and DoesNotExist.
     *
     * Items: A label value.
     */
    values?: string[];
  }[];
}
/**
 * The instances this registration serves, by the labels of their Namespace. Absent or empty: every namespace. Scoby reads Namespaces (get, list, watch) to evaluate it.
 */
export interface NamespaceSelector {
  /**
   * Labels that must all be present with these values.
   */
  matchLabels?: {
    /**
     * A label value.
     */
    [k: string]: string;
  };
  /**
   * Requirements that must all hold.
   *
   * Items: A requirement on one label.
   */
  matchExpressions?: {
    /**
     * The label key, a qualified name such as track or example.com/track.
     */
    key: string;
    /**
     * In, NotIn, Exists or DoesNotExist.
     */
    operator: string;
    /**
     * Non-empty for In and NotIn; must be empty for Exists and DoesNotExist.
     *
     * Items: A label value.
     */
    values?: string[];
  }[];
}

/**
 * Written by Scoby.
 */
export interface CRDRegistrationStatus {
  /**
   * metadata.generation of the spec this status describes.
   */
  observedGeneration?: number;
  /**
   * hookURL: the resolved hook URL while spec.hook is set.
   */
  annotations?: {
    /**
     * An annotation value.
     */
    [k: string]: string;
  };
  /**
   * The verbs the registration's controller writes instances with, while its permission check passes: patch where granted, else update.
   */
  writeVerbs?: {
    /**
     * The verb on <resource>/status; absent without a status subresource.
     */
    status?: 'patch' | 'update';
    /**
     * The verb on <resource> for Scoby's finalizer; absent when neither is granted (a registration without a finalize hook needs none).
     */
    finalizers?: 'patch' | 'update';
  };
  /**
   * Instance counts of a registration sharing its CRD with another running one (selectors, registration.md §6.8); absent otherwise.
   */
  instances?: {
    /**
     * Instances this registration serves: its selection matches and no older registration serves them.
     */
    served?: number;
    /**
     * Instances its selection matches that an older registration serves instead.
     */
    servedByOthers?: number;
  };
  /**
   * CRDExists, ControllerReady and Ready, sorted by type.
   *
   * Items: A condition.
   */
  conditions?: {
    /**
     * CRDExists, ControllerReady or Ready.
     */
    type: string;
    /**
     * True, False or Unknown.
     */
    status: 'True' | 'False' | 'Unknown';
    /**
     * Machine-readable reason, e.g. CONDITIONSOK, CRDERROR or InvalidFormFactor.
     */
    reason: string;
    /**
     * What is wrong, with the field path; "" when nothing is.
     */
    message: string;
    /**
     * When status last changed (RFC 3339, whole seconds).
     */
    lastTransitionTime: string;
  }[];
}
