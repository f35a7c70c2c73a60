export {
  startControlPlane,
  type ApiServerSettings,
  type ComponentName,
  type ControlPlane,
  type ControlPlaneComponent,
  type ControlPlaneOptions,
} from './control-plane.ts';
export {
  binariesCacheFolder,
  cacheRoot,
  helmCacheFolder,
  locateHelm,
  locateBinaries,
  locateToxiproxy,
  missingBinaries,
  KUBE_BINARIES,
  KUBE_RELEASE,
  KWOK_STAGES_FILE,
  type KubeRelease,
} from './binaries.ts';
export { ComponentFailed } from './component.ts';
export { AUDITED_NAMESPACE, auditPolicy, type AuditedBodies } from './audit-policy.ts';
export {
  AuditTail,
  auditMicros,
  parseAuditLog,
  readAuditLog,
  WRITE_VERBS,
  type AuditEntry,
  type AuditObjectRef,
} from './audit-log.ts';
export { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
export {
  startToxiproxy,
  type Toxic,
  type ToxicProxy,
  type ToxicSpec,
  type ToxicStream,
  type Toxiproxy,
} from './toxiproxy.ts';
export { Reaper } from './reaper.ts';
export {
  KNATIVE_BINARIES,
  KNATIVE_INGRESS,
  KNATIVE_RELEASE,
  knativeCacheFolder,
  knativeImage,
  traefikImage,
  type KnativeBinary,
} from './knative.ts';
export {
  knativeInstallStages,
  TRAEFIK_INGRESS_CLASS,
  type KnativeInstallStages,
  type ManifestObject,
} from './knative-manifest.ts';
