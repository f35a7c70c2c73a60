import type { KubeObject } from '@scoby/kube-objects';
import { isJsonMap } from '../json.ts';
import type { TypeStrategy } from './strategy.ts';
import { validateSecretUpdate } from '../validation/immutable-data.ts';

/** stringData is write-only: merged into data (base64) and never stored. */
export const secretStrategy: TypeStrategy = {
  validateUpdate: validateSecretUpdate,
  defaults(object: KubeObject): KubeObject {
    const { stringData, ...rest } = object;
    const data: Record<string, unknown> = isJsonMap(object.data) ? { ...object.data } : {};
    if (isJsonMap(stringData)) {
      for (const [key, value] of Object.entries(stringData))
        data[key] = Buffer.from(String(value)).toString('base64');
    }
    return {
      ...rest,
      ...(Object.keys(data).length > 0 || object.data !== undefined ? { data } : {}),
      type: typeof object.type === 'string' ? object.type : 'Opaque',
    };
  },
};
