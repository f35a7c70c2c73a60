/**
 * Rendering one instance into its desired children (docs/spec/children-and-status.md §1 steps 6–7): env and
 * volumes, the form factor's children, and statusConfiguration.add. The controller and `scoby render`
 * run exactly this code.
 */
import { renderEnv, type RenderLookups } from '@scoby/env';
import { renderInputFor, type FormFactorPlugin } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { NormalizedRegistrationSpec } from '@scoby/registration';
import { applyStatusAdd } from './status/status-add.ts';
import type { Status } from './status/instance-status.ts';

export interface RenderTarget {
  registrationName: string;
  spec: NormalizedRegistrationSpec;
  plugin: FormFactorPlugin;
  /** `<group>/<chosen version>` of the registered CRD (§4.3). */
  instanceApiVersion: string;
  /** Whether the status schema admits a statusConfiguration.add path (§7.2). */
  statusPathAllowed(segments: readonly string[]): boolean;
}

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
  working: Status,
  target: RenderTarget,
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
      instance: {
        apiVersion: target.instanceApiVersion,
        kind: instance.kind,
        namespace: instance.metadata.namespace ?? '',
        name: instance.metadata.name ?? '',
        uid: instance.metadata.uid ?? '',
      },
      container: { env: rendered.env, volumes: rendered.volumes, volumeMounts: rendered.volumeMounts },
    }),
  );
  const status = applyStatusAdd(
    working,
    target.spec.statusConfiguration.add,
    rendered.sourceMap,
    target.statusPathAllowed,
  );
  return { ok: true, children, status, warnings };
}
