import type { RenderedContainer } from '@scoby/kube-objects';
import { adapterContainer, adapterPodSpec } from './adapter.ts';
import type { InstanceIdentity, RenderInput } from './contract.ts';
import { selectorLabels, standardLabels } from './labels.ts';
import { childName, subdomainChildName } from './names.ts';
import { ownerReference } from './owner-reference.ts';

export interface RenderContext<Block> {
  block: Block;
  registration: { name: string; image: string };
  instance: InstanceIdentity;
  container: RenderedContainer;
}

/** Completes what the controller knows with the standard name, labels, owner reference and container. */
export function renderInputFor<Block>(context: RenderContext<Block>): RenderInput<Block> {
  const { registration, instance, container } = context;
  return {
    ...context,
    standard: {
      name: childName(registration.name, instance.name),
      subdomainName: subdomainChildName(registration.name, instance.name),
      labels: standardLabels(registration.name, instance.name),
      selectorLabels: selectorLabels(registration.name, instance.name),
      ownerReference: ownerReference(instance),
    },
    adapterContainer: adapterContainer(registration.image, container),
    podSpec: adapterPodSpec(registration.image, container),
  };
}
