import { isJsonMap, type JsonMap } from '../json.ts';

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  const lastSegment = image.split('/').pop() ?? '';
  if (image.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** A volume without a source is an emptyDir; configMap and secret sources get mode 0644. */
function defaultVolume(volume: unknown): unknown {
  if (!isJsonMap(volume)) return volume;
  const { name: _name, ...sources } = volume;
  if (Object.values(sources).every((source) => source === null || source === undefined))
    return { ...volume, emptyDir: {} };
  const withMode = (source: unknown) =>
    isJsonMap(source) && source.defaultMode === undefined ? { ...source, defaultMode: 420 } : source;
  return {
    ...volume,
    ...(isJsonMap(volume.configMap) ? { configMap: withMode(volume.configMap) } : {}),
    ...(isJsonMap(volume.secret) ? { secret: withMode(volume.secret) } : {}),
  };
}

/** A fieldRef reads the v1 pod unless it names another version. */
function defaultEnvVar(variable: unknown): unknown {
  if (!isJsonMap(variable) || !isJsonMap(variable.valueFrom)) return variable;
  const fieldRef = variable.valueFrom.fieldRef;
  if (!isJsonMap(fieldRef) || (typeof fieldRef.apiVersion === 'string' && fieldRef.apiVersion !== ''))
    return variable;
  return { ...variable, valueFrom: { ...variable.valueFrom, fieldRef: { ...fieldRef, apiVersion: 'v1' } } };
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
