import { isJsonMap, type JsonMap } from '../json.ts';

function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  const lastSegment = image.split('/').pop() ?? '';
  if (image.includes('@')) return 'IfNotPresent';
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
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
      ...(Array.isArray(spec.containers) ? { containers: spec.containers.map(defaultContainer) } : {}),
      ...(Array.isArray(spec.initContainers)
        ? { initContainers: spec.initContainers.map(defaultContainer) }
        : {}),
    },
  };
}
