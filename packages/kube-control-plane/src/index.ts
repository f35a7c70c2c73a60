export { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './control-plane.ts';
export {
  binariesCacheFolder,
  helmCacheFolder,
  locateHelm,
  locateBinaries,
  missingBinaries,
  KUBE_BINARIES,
  KUBE_RELEASE,
  type KubeRelease,
} from './binaries.ts';
export { ComponentFailed } from './component.ts';
