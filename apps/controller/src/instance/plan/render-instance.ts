/**
 * Rendering one instance into its desired children (docs/spec/children-and-status.md §1 steps 6–7): env and
 * volumes, the form factor's children, and statusConfiguration.add.
 */
import { renderEnv, type RenderLookups } from '@scoby/env';
import { renderInputFor, type InstanceIdentity } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { statusPathAllowed } from '../../crd/status-paths.ts';
import { applyStatusAdd } from '../status/status-add.ts';
import type { Status } from '../status/instance-status.ts';
import type { InstanceTarget } from './instance-target.ts';

export type InstanceRender =
  | {
      ok: false;
      errors: string[];
      warnings: string[];
      /** Only a change of the instance's spec or of the registration can fix the errors (docs/spec/env.md §9). */
      needsSpecChange: boolean;
    }
  | {
      ok: true;
      children: Record<string, KubeObject>;
      /** The working status with statusConfiguration.add applied. */
      status: Status;
      warnings: string[];
    };

export async function renderInstance(
  instance: KubeObject,
  identity: InstanceIdentity,
  working: Status,
  target: InstanceTarget,
  lookups: RenderLookups,
): Promise<InstanceRender> {
  const rendered = await renderEnv({ instance, config: target.spec.parameterConfiguration }, lookups);
  const warnings = rendered.warnings.map((warning) => warning.message);
  if (rendered.errors.length > 0)
    return { ok: false, errors: rendered.errors, warnings, needsSpecChange: rendered.needsSpecChange };
  const children = target.plugin.render(
    renderInputFor({
      block: target.spec.formFactor.config,
      registration: { name: target.registrationName, image: target.spec.image },
      instance: identity,
      container: { env: rendered.env, volumes: rendered.volumes, volumeMounts: rendered.volumeMounts },
    }),
  );
  // §8.9: paths the status schema does not allow (§7.2) are skipped.
  const status = applyStatusAdd(
    working,
    target.spec.statusConfiguration.add,
    rendered.sourceMap,
    (segments) => statusPathAllowed(target.features.schema, segments),
  );
  return { ok: true, children, status, warnings };
}
