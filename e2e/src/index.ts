export { ClusterHandle, type EventView } from './handle.ts';
export { clusterForScenario, controllerImage, hookHost, type E2eContext } from './context.ts';
export { KubeApiError, KubeClient, FIELD_MANAGER, type Resource } from './kube/client.ts';
export { parseManifests, readManifests } from './kube/manifests.ts';
export { adapterOf, conditionOf, conditionsOf, podSpecOf, statusOf, type ConditionView } from './objects.ts';
export { chooseProvider, type K3sProbe, type ProviderChoice, type ProviderName } from './providers/choose.ts';
export { k3sProbe, localImageProbe, type ContainerRuntime } from './providers/k3s-probe.ts';
export {
  ADAPTER_IMAGE,
  CLUSTER_CHOICES,
  DEFAULT_K3S_IMAGE,
  DEFAULT_NODE_CONTROLLER_IMAGE,
  DEFAULT_NODE_IMAGE,
  SCOBY_NAMESPACE,
  readSettings,
  type ClusterChoice,
  type E2eSettings,
} from './settings.ts';
export { waitFor, type Probe, type WaitOptions } from './wait.ts';
export { crdYaml, registeredKindYaml, scobyAccessYaml, type KindNames } from './kinds.ts';
export { startGarbageHook, type GarbageHook } from './garbage-hook.ts';
export { DEPLOY_DIRECTORY, deployManifests } from './deploy-manifests.ts';
