import type { KeyToPath, Volume } from '@scoby/kube-objects';
import type { MountFrom, VolumeItem } from '@scoby/registration';
import type { ReferenceReader } from './references.ts';

/**
 * The pod volume of a toVolume entry (docs/spec/env.md §6.5, §6.7), or undefined when a reference failed (the
 * reader has recorded why). Every reference is read, so all errors of one entry are reported.
 */
export function buildVolume(name: string, mountFrom: MountFrom, read: ReferenceReader): Volume | undefined {
  const { configMapPath, secretPath } = mountFrom;
  if (configMapPath !== undefined) {
    const configMapName = read(configMapPath.name, 'mountFrom.configMapPath.name');
    const items = buildItems(configMapPath.items, 'mountFrom.configMapPath', read);
    if (configMapName === undefined || items === undefined) return undefined;
    return { name, configMap: { name: configMapName, ...sourceOptions(items, configMapPath) } };
  }
  if (secretPath !== undefined) {
    const secretName = read(secretPath.secretName, 'mountFrom.secretPath.secretName');
    const items = buildItems(secretPath.items, 'mountFrom.secretPath', read);
    if (secretName === undefined || items === undefined) return undefined;
    return { name, secret: { secretName, ...sourceOptions(items, secretPath) } };
  }
  return undefined;
}

function buildItems(
  items: VolumeItem[] | undefined,
  field: string,
  read: ReferenceReader,
): KeyToPath[] | undefined {
  const built: KeyToPath[] = [];
  let failed = false;
  (items ?? []).forEach((item, i) => {
    const key = read(item.key, `${field}.items[${i}].key`);
    if (key === undefined) failed = true;
    else
      built.push(
        item.mode === undefined ? { key, path: item.path } : { key, path: item.path, mode: item.mode },
      );
  });
  return failed ? undefined : built;
}

/** items (omitted when empty), then defaultMode and optional when written. */
function sourceOptions(
  items: KeyToPath[],
  written: { defaultMode?: number; optional?: boolean },
): { items?: KeyToPath[]; defaultMode?: number; optional?: boolean } {
  return {
    ...(items.length > 0 && { items }),
    ...(written.defaultMode !== undefined && { defaultMode: written.defaultMode }),
    ...(written.optional !== undefined && { optional: written.optional }),
  };
}
