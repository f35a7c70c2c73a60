/**
 * A pod's volumes and a container's volumeMounts as kube-apiserver v1.34 validates them
 * (pkg/apis/core/validation ValidateVolumes, ValidateVolumeMounts) for the sources Scoby writes
 * (configMap and secret, with items and modes) and the common others (emptyDir and its size limit,
 * persistentVolumeClaim, hostPath, downwardAPI, projected's mode): names, exactly one source, the
 * source's fields; mounts naming a volume of the pod, each at its own path. The other volume sources
 * count as a source but their fields are not checked (see the README's differences).
 */
import { isJsonObject, type Cause, type JsonMap } from '@scoby/structural-schema';
import { dnsLabelErrors } from '../names.ts';
import { duplicate, forbidden, invalidValue, notFound, notSupported, requiredValue } from './field-errors.ts';
import { fieldRefCauses, VOLUME_FIELD_PATHS } from './pod-env.ts';
import { parseQuantity } from './quantity.ts';

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

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

function emptyDirCauses(source: JsonMap, field: string): Cause[] {
  if (typeof source.sizeLimit !== 'string') return [];
  const parsed = parseQuantity(source.sizeLimit);
  return parsed.ok && parsed.value.milli < 0n
    ? [forbidden(`${field}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')]
    : [];
}

function hostPathCauses(source: JsonMap, field: string): Cause[] {
  const path = text(source.path);
  if (path === '') return [requiredValue(`${field}.path`, '')];
  const causes: Cause[] = [];
  if (path.split('/').includes('..'))
    causes.push(invalidValue(`${field}.path`, path, "must not contain '..'"));
  const type = source.type ?? '';
  if (!HOST_PATH_TYPES.includes(String(type)))
    causes.push(notSupported(`${field}.type`, type, HOST_PATH_TYPES));
  return causes;
}

/**
 * validateDownwardAPIVolumeSource: each file with a path and exactly one of fieldRef and
 * resourceFieldRef. kube-apiserver names its files' fields after the source, not the item.
 */
function downwardApiCauses(source: JsonMap, field: string): Cause[] {
  const causes = modeCauses(`${field}.defaultMode`, source.defaultMode);
  for (const item of Array.isArray(source.items) ? source.items : []) {
    const file = isJsonObject(item) ? item : {};
    const path = text(file.path);
    if (path === '') causes.push(requiredValue(`${field}.path`, ''));
    causes.push(...localPathCauses(`${field}.path`, path));
    const hasField = isJsonObject(file.fieldRef);
    const hasResource = isJsonObject(file.resourceFieldRef);
    if (hasField)
      causes.push(...fieldRefCauses(file.fieldRef as JsonMap, `${field}.fieldRef`, VOLUME_FIELD_PATHS));
    if (hasField && hasResource)
      causes.push(
        invalidValue(
          `${field}.resourceFieldRef`,
          'resource',
          'fieldRef and resourceFieldRef can not be specified simultaneously',
        ),
      );
    if (!hasField && !hasResource)
      causes.push(requiredValue(field, 'one of fieldRef and resourceFieldRef is required'));
    causes.push(...modeCauses(`${field}.mode`, file.mode));
  }
  return causes;
}

/** The fields of the first source, for the sources workloads commonly use. */
function ownSourceCauses(kind: string, source: JsonMap, field: string): Cause[] {
  switch (kind) {
    case 'secret':
      return projectionCauses(source, field, 'secretName');
    case 'configMap':
      return projectionCauses(source, field, 'name');
    case 'emptyDir':
      return emptyDirCauses(source, field);
    case 'persistentVolumeClaim':
      return text(source.claimName) === '' ? [requiredValue(`${field}.claimName`, '')] : [];
    case 'hostPath':
      return hostPathCauses(source, field);
    case 'downwardAPI':
      return downwardApiCauses(source, field);
    case 'projected':
      return modeCauses(`${field}.defaultMode`, source.defaultMode);
    default:
      return [];
  }
}

function sourceCauses(volume: JsonMap, field: string): Cause[] {
  const present = VOLUME_SOURCES.filter((source) => isJsonObject(volume[source]));
  if (present.length === 0) return [requiredValue(field, 'must specify a volume type')];
  const [first, ...others] = present;
  const kind = first as string;
  const own = ownSourceCauses(kind, volume[kind] as JsonMap, `${field}.${kind}`);
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
