import { isJsonMap, type JsonMap } from '../json.ts';

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  const lastSegment = image.split('/').pop() ?? '';
  if (image.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** A fieldRef reads the v1 pod unless it names another version. */
function defaultFieldRef(fieldRef: unknown): unknown {
  if (!isJsonMap(fieldRef) || (typeof fieldRef.apiVersion === 'string' && fieldRef.apiVersion !== ''))
    return fieldRef;
  return { ...fieldRef, apiVersion: 'v1' };
}

function defaultDownwardApi(source: JsonMap): JsonMap {
  return {
    ...source,
    ...(Array.isArray(source.items)
      ? {
          items: source.items.map((item: unknown) =>
            isJsonMap(item) && item.fieldRef !== undefined
              ? { ...item, fieldRef: defaultFieldRef(item.fieldRef) }
              : item,
          ),
        }
      : {}),
  };
}

/** A projected service account token expires after an hour unless told otherwise. */
function defaultProjection(projection: unknown): unknown {
  if (!isJsonMap(projection) || !isJsonMap(projection.serviceAccountToken)) return projection;
  return {
    ...projection,
    serviceAccountToken: { expirationSeconds: 3600, ...projection.serviceAccountToken },
  };
}

/**
 * A volume without a source is an emptyDir; configMap, secret, downwardAPI and projected sources get
 * mode 0644, a hostPath the empty type.
 */
function defaultVolume(volume: unknown): unknown {
  if (!isJsonMap(volume)) return volume;
  const { name: _name, ...sources } = volume;
  if (Object.values(sources).every((source) => source === null || source === undefined))
    return { ...volume, emptyDir: {} };
  const withMode = (source: JsonMap): JsonMap =>
    source.defaultMode === undefined ? { ...source, defaultMode: 420 } : source;
  const { configMap, secret, downwardAPI, projected, hostPath } = volume;
  return {
    ...volume,
    ...(isJsonMap(configMap) ? { configMap: withMode(configMap) } : {}),
    ...(isJsonMap(secret) ? { secret: withMode(secret) } : {}),
    ...(isJsonMap(downwardAPI) ? { downwardAPI: withMode(defaultDownwardApi(downwardAPI)) } : {}),
    ...(isJsonMap(projected)
      ? {
          projected: withMode({
            ...projected,
            ...(Array.isArray(projected.sources)
              ? { sources: projected.sources.map(defaultProjection) }
              : {}),
          }),
        }
      : {}),
    ...(isJsonMap(hostPath) ? { hostPath: { type: '', ...hostPath } } : {}),
  };
}

const PROBE_DEFAULTS = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };

/** A probe's periods and thresholds, an HTTP probe's path and scheme, a gRPC probe's service. */
function defaultProbe(probe: unknown): unknown {
  if (!isJsonMap(probe)) return probe;
  return {
    ...PROBE_DEFAULTS,
    ...probe,
    ...(isJsonMap(probe.httpGet) ? { httpGet: { path: '/', scheme: 'HTTP', ...probe.httpGet } } : {}),
    ...(isJsonMap(probe.grpc) ? { grpc: { service: '', ...probe.grpc } } : {}),
  };
}

function defaultEnvVar(variable: unknown): unknown {
  if (!isJsonMap(variable) || !isJsonMap(variable.valueFrom) || !isJsonMap(variable.valueFrom.fieldRef))
    return variable;
  return {
    ...variable,
    valueFrom: { ...variable.valueFrom, fieldRef: defaultFieldRef(variable.valueFrom.fieldRef) },
  };
}

function defaultContainer(container: unknown): unknown {
  if (!isJsonMap(container)) return container;
  return {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: imagePullPolicy(container.image),
    resources: {},
    ...container,
    ...(Array.isArray(container.ports)
      ? {
          ports: container.ports.map((port: unknown) =>
            isJsonMap(port) ? { protocol: 'TCP', ...port } : port,
          ),
        }
      : {}),
    ...(Array.isArray(container.env) ? { env: container.env.map(defaultEnvVar) } : {}),
    ...Object.fromEntries(
      (['livenessProbe', 'readinessProbe', 'startupProbe'] as const)
        .filter((key) => isJsonMap(container[key]))
        .map((key) => [key, defaultProbe(container[key])]),
    ),
  };
}

/** The API defaults of a PodTemplateSpec, so that workloads read back like from a real server. */
export function defaultPodTemplate(template: unknown): unknown {
  if (!isJsonMap(template)) return template;
  const spec: JsonMap = isJsonMap(template.spec) ? template.spec : {};
  return {
    ...template,
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      ...spec,
      ...(Array.isArray(spec.volumes) ? { volumes: spec.volumes.map(defaultVolume) } : {}),
      ...(Array.isArray(spec.containers) ? { containers: spec.containers.map(defaultContainer) } : {}),
      ...(Array.isArray(spec.initContainers)
        ? { initContainers: spec.initContainers.map(defaultContainer) }
        : {}),
    },
  };
}
