/**
 * A pod's volumes and a container's volumeMounts as kube-apiserver v1.34 validates them
 * (pkg/apis/core/validation ValidateVolumes, ValidateVolumeMounts) for the sources Scoby writes
 * (configMap and secret, with items and modes) and emptyDir: names, exactly one source, the source's
 * fields; mounts naming a volume of the pod, each at its own path. The other volume sources count as a
 * source but their fields are not checked (see the README's differences).
 */
import { isJsonObject, type Cause, type JsonMap } from '@scoby/structural-schema';
import { dnsLabelErrors } from '../names.ts';
import { duplicate, forbidden, invalidValue, notFound, requiredValue } from './field-errors.ts';

const FILE_MODE_MESSAGE = 'must be a number between 0 and 0777 (octal), both inclusive';

/** The volume sources of a v1.Volume, in the order kube-apiserver looks at them. */
const VOLUME_SOURCES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
];

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function modeCauses(field: string, mode: unknown): Cause[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0)
    ? [invalidValue(field, mode, FILE_MODE_MESSAGE)]
    : [];
}

/** ValidateLocalNonReservedPath: relative, no '..' element, not starting with '..'. */
function localPathCauses(field: string, path: string): Cause[] {
  const causes: Cause[] = [];
  if (path.startsWith('/')) causes.push(invalidValue(field, path, 'must be a relative path'));
  if (path.split('/').includes('..')) causes.push(invalidValue(field, path, "must not contain '..'"));
  else if (path.startsWith('..')) causes.push(invalidValue(field, path, "must not start with '..'"));
  return causes;
}

function itemCauses(items: unknown, field: string): Cause[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown, index) => {
    const at = `${field}[${index}]`;
    const entry = isJsonObject(item) ? item : {};
    const key = text(entry.key);
    const path = text(entry.path);
    return [
      ...(key === '' ? [requiredValue(`${at}.key`, '')] : []),
      ...(path === '' ? [requiredValue(`${at}.path`, '')] : []),
      ...localPathCauses(`${at}.path`, path),
      ...modeCauses(`${at}.mode`, entry.mode),
    ];
  });
}

function projectionCauses(source: JsonMap, field: string, nameField: 'name' | 'secretName'): Cause[] {
  return [
    ...(text(source[nameField]) === '' ? [requiredValue(`${field}.${nameField}`, '')] : []),
    ...modeCauses(`${field}.defaultMode`, source.defaultMode),
    ...itemCauses(source.items, `${field}.items`),
  ];
}

function sourceCauses(volume: JsonMap, field: string): Cause[] {
  const present = VOLUME_SOURCES.filter((source) => isJsonObject(volume[source]));
  if (present.length === 0) return [requiredValue(field, 'must specify a volume type')];
  const [first, ...others] = present;
  const source = volume[first as string] as JsonMap;
  const own =
    first === 'secret'
      ? projectionCauses(source, `${field}.secret`, 'secretName')
      : first === 'configMap'
        ? projectionCauses(source, `${field}.configMap`, 'name')
        : [];
  return [
    ...own,
    ...others.map((other) => forbidden(`${field}.${other}`, 'may not specify more than 1 volume type')),
  ];
}

/** Causes of `spec.volumes`, and the names of the volumes that are valid (mounts may name only those). */
export function volumeCauses(volumes: unknown, path: string): { causes: Cause[]; names: Set<string> } {
  const causes: Cause[] = [];
  const names = new Set<string>();
  if (!Array.isArray(volumes)) return { causes, names };
  volumes.forEach((volume: unknown, index) => {
    const field = `${path}[${index}]`;
    const entry = isJsonObject(volume) ? volume : {};
    const name = text(entry.name);
    const errors = [
      ...sourceCauses(entry, field),
      ...(name === ''
        ? [requiredValue(`${field}.name`, '')]
        : dnsLabelErrors(name).map((message) => invalidValue(`${field}.name`, name, message))),
      ...(names.has(name) ? [duplicate(`${field}.name`, name)] : []),
    ];
    if (errors.length === 0) names.add(name);
    causes.push(...errors);
  });
  return { causes, names };
}

/** Causes of a container's `volumeMounts`, given the pod's valid volume names. */
export function volumeMountCauses(mounts: unknown, path: string, volumes: ReadonlySet<string>): Cause[] {
  if (!Array.isArray(mounts)) return [];
  const mountPaths = new Set<string>();
  return mounts.flatMap((mount: unknown, index) => {
    const field = `${path}[${index}]`;
    const entry = isJsonObject(mount) ? mount : {};
    const name = text(entry.name);
    const mountPath = text(entry.mountPath);
    const causes = [
      ...(name === '' ? [requiredValue(`${field}.name`, '')] : []),
      ...(volumes.has(name) ? [] : [notFound(`${field}.name`, name)]),
      ...(mountPath === '' ? [requiredValue(`${field}.mountPath`, '')] : []),
      ...(mountPaths.has(mountPath) ? [invalidValue(`${field}.mountPath`, mountPath, 'must be unique')] : []),
    ];
    mountPaths.add(mountPath);
    return causes;
  });
}
