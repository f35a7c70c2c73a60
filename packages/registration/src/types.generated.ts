/* Generated from src/schema.ts by scripts/generate.ts (npm run generate). Do not edit. */

export interface CRDRegistrationSpec {
  /**
   * Name of the namespaced CRD to control, <plural>.<group>.
   */
  crd: string;
  workload: {
    fromImage: {
      /**
       * Image of the adapter container.
       */
      repo: string;
    };
    formFactor?: FormFactorBlock;
    parameterConfiguration?: ParameterConfiguration;
    statusConfiguration?: StatusConfiguration;
  };
  hook?: HookSpec;
}
/**
 * At most one form factor; default a one-replica Deployment. Other keys configure plugin form factors.
 */
export interface FormFactorBlock {
  deployment?: DeploymentFormFactor | null;
  knativeService?: KnativeServiceFormFactor | null;
  [k: string]: unknown;
}
export interface DeploymentFormFactor {
  /**
   * Default 1.
   */
  replicas?: number;
  service?: {
    port: number;
    targetPort: number;
  };
}
export interface KnativeServiceFormFactor {
  minScale?: number;
  maxScale?: number;
  visibility?: string;
}
/**
 * How instance spec fields become environment variables and volumes.
 */
export interface ParameterConfiguration {
  global?: {
    /**
     * Prefix of generated variable names.
     */
    defaultPrefix?: string;
  };
  fromSpec?: {
    skip?: {
      path: string;
    }[];
    toEnv?: FromSpecToEnv[];
    toVolume?: FromSpecToVolume[];
  };
  add?: {
    toEnv?: AddToEnv[];
    toVolume?: AddToVolume[];
  };
}
export interface FromSpecToEnv {
  /**
   * Spec path of the value.
   */
  path: string;
  /**
   * Explicit environment variable name.
   */
  name?: string;
  /**
   * Used when the path is absent. At most one of value, configMap, secret.
   */
  default?: {
    value?: string;
    configMap?: SelectorRef;
    secret?: SelectorRef;
  };
  /**
   * Legacy alias of default.value.
   */
  defaultValue?: string;
  /**
   * At most one of configMapPath, secretPath, builtInFunc.
   */
  valueFrom?: {
    configMapPath?: {
      /**
       * Spec path of the object name.
       */
      name: string;
      /**
       * Spec path of the key.
       */
      key: string;
      optional?: boolean;
    };
    secretPath?: {
      /**
       * Spec path of the object name.
       */
      name: string;
      /**
       * Spec path of the key.
       */
      key: string;
      optional?: boolean;
    };
    builtInFunc?: {
      /**
       * Only resolveAddress.
       */
      name: string;
      args?: string[];
    };
  };
}
export interface SelectorRef {
  name: string;
  key: string;
  optional?: boolean;
}
export interface FromSpecToVolume {
  path: string;
  name: string;
  mountPath: string;
  mountFrom: MountFrom;
}
/**
 * Exactly one of configMapPath, secretPath.
 */
export interface MountFrom {
  configMapPath?: {
    name: string;
    items?: VolumeItem[];
    defaultMode?: number;
    optional?: boolean;
  };
  secretPath?: {
    secretName: string;
    items?: VolumeItem[];
    defaultMode?: number;
    optional?: boolean;
  };
}
export interface VolumeItem {
  key: string;
  path: string;
  mode?: number;
}
/**
 * Exactly one of value, valueFrom, valueFromControllerConfigMap.
 */
export interface AddToEnv {
  name: string;
  value?: string;
  /**
   * Exactly one of field (or its legacy alias fieldRef), configMap, secret.
   */
  valueFrom?: {
    field?: {
      fieldPath: string;
      apiVersion?: string;
    };
    fieldRef?: {
      fieldPath: string;
      apiVersion?: string;
    };
    configMap?: SelectorRef;
    secret?: SelectorRef;
  };
  valueFromControllerConfigMap?: SelectorRef;
}
export interface AddToVolume {
  name: string;
  mountPath: string;
  mountFrom: MountFrom;
}
export interface StatusConfiguration {
  add?: {
    /**
     * Status path to fill.
     */
    path: string;
    valueFrom: {
      /**
       * Spec path of the value.
       */
      path: string;
    };
  }[];
  /**
   * Extra instance condition types reported by the pre-reconcile hook.
   */
  conditionsFromHook?: {
    type: string;
  }[];
}
export interface HookSpec {
  /**
   * Hooks API version: "v1", "1" or 1.
   */
  version: number | string;
  address: Destination;
  /**
   * ISO 8601 duration, default PT15S.
   */
  timeout?: string;
  /**
   * pre-reconcile and/or finalize.
   */
  capabilities?: string[];
}
/**
 * At least one of ref, uri.
 */
export interface Destination {
  ref?: {
    apiVersion?: string;
    kind?: string;
    name?: string;
    namespace?: string;
  };
  uri?: string;
}

export interface CRDRegistrationStatus {
  observedGeneration?: number;
  annotations?: {
    [k: string]: string;
  };
  conditions?: {
    type: string;
    status: 'True' | 'False' | 'Unknown';
    reason: string;
    message: string;
    lastTransitionTime: string;
  }[];
}
