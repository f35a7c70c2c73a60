/** Defaults the command line documents; kept apart so `--help` loads no command code. */
export const EMBEDDED_NAMESPACE = 'scoby-system';
export const DEFAULT_KUBECONFIG_OUT = '.scoby/kubeconfig';
/** Without SCOBY_NAMESPACE or --scoby-namespace, `scoby render` looks up controller ConfigMaps here. */
export const DEFAULT_RENDER_NAMESPACE = 'scoby-system';
/** Where `scoby render` creates an instance without metadata.namespace, as kubectl would. */
export const DEFAULT_INSTANCE_NAMESPACE = 'default';
