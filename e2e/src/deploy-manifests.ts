/** The install manifests of deploy/, in the order a user applies them (file names sort that way). */
import { readdir } from 'node:fs/promises';
import type { KubeObject } from '@scoby/kube-objects';
import { readManifests } from './kube/manifests.ts';

export const DEPLOY_DIRECTORY = new URL('../../deploy/', import.meta.url);

export async function deployManifests(): Promise<KubeObject[]> {
  const files = (await readdir(DEPLOY_DIRECTORY)).filter((file) => file.endsWith('.yaml')).sort();
  const objects: KubeObject[] = [];
  for (const file of files) objects.push(...(await readManifests(new URL(file, DEPLOY_DIRECTORY))));
  return objects;
}
