import { readFileSync } from 'node:fs';
import {
  createFormFactorRegistry,
  renderInputFor,
  type FormFactorRegistry,
  type InstanceIdentity,
} from '@scoby/formfactor';
import type { KubeObject, RenderedContainer } from '@scoby/kube-objects';
import { parse } from 'yaml';
import { deploymentFormFactor, type DeploymentBlock } from '../src/index.ts';

export const IMAGE = 'registry.example.com/mailer-adapter:1.4.2';

export const INSTANCE: InstanceIdentity = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  namespace: 'shop',
  name: 'orders',
  uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
};

export const NOTHING_RENDERED: RenderedContainer = { env: [], volumes: [], volumeMounts: [] };

function createRegistry(): FormFactorRegistry {
  const created = createFormFactorRegistry({ builtIns: [deploymentFormFactor], plugins: [] });
  if (!created.ok) throw new Error(created.messages.join('; '));
  return created.registry;
}

/** Compiling schemas is the slow part, so the tests share one registry. */
export const REGISTRY = createRegistry();

/** Resolves `spec.workload.formFactor` as the controller does, so defaults apply, then renders. */
export function renderFor(
  formFactor: unknown,
  container: RenderedContainer = NOTHING_RENDERED,
  registrationName = 'mailer',
): Record<string, KubeObject> {
  const block = resolvedBlock(formFactor);
  return deploymentFormFactor.render(
    renderInputFor({
      block,
      registration: { name: registrationName, image: IMAGE },
      instance: INSTANCE,
      container,
    }),
  );
}

export function resolvedBlock(formFactor: unknown): DeploymentBlock {
  const resolution = REGISTRY.resolve(formFactor);
  if (!resolution.ok) throw new Error(resolution.problems.map((problem) => problem.message).join('; '));
  return resolution.formFactor.block as unknown as DeploymentBlock;
}

export function golden(file: string): Record<string, KubeObject> {
  return parse(readFileSync(new URL(`./golden/${file}`, import.meta.url), 'utf8')) as Record<
    string,
    KubeObject
  >;
}
