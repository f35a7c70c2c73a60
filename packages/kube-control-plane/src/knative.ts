/**
 * Where the binaries of the pinned Knative Serving release (knative-release.json) live: a cache folder
 * outside the work tree, named after a hash of the pins, filled once by `npm run knative-binaries`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, pinsOf } from './binaries.ts';

export interface KnativeRelease {
  serving: string;
  networking: string;
  caching: string;
}

export const KNATIVE_RELEASE: KnativeRelease = JSON.parse(
  readFileSync(new URL('../knative-release.json', import.meta.url), 'utf8'),
) as KnativeRelease;

export const KNATIVE_RELEASE_FILE = 'knative-release.json';

/** The programs of knative.dev/serving/cmd a Serving installation runs; `queue` is the queue-proxy. */
export const KNATIVE_BINARIES = ['controller', 'webhook', 'autoscaler', 'activator', 'queue'] as const;

export type KnativeBinary = (typeof KNATIVE_BINARIES)[number];

/** The first 12 hex digits of the SHA-256 of the pins (sorted keys, no comment): any pin change moves it. */
export function knativePinHash(release: KnativeRelease = KNATIVE_RELEASE): string {
  return createHash('sha256')
    .update(JSON.stringify(pinsOf(release)))
    .digest('hex')
    .slice(0, 12);
}

/** `<cache root>/knative/serving-<version>-<pin hash>`: readable, and unique per set of pins. */
export function knativeCacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  release: KnativeRelease = KNATIVE_RELEASE,
): string {
  return join(cacheRoot(env), 'knative', `serving-${release.serving}-${knativePinHash(release)}`);
}

/** The host of the images this repository builds (e2e/images/build-images.sh): preloaded into the node
 *  container, never resolved against a registry. */
export const LOCAL_IMAGE_HOST = 'scoby.local';

/** The image `npm run images -- knative` builds for one program of the pinned release. */
export function knativeImage(program: KnativeBinary, release: KnativeRelease = KNATIVE_RELEASE): string {
  return `${LOCAL_IMAGE_HOST}/knative-${program}:${release.serving}`;
}

/** The ingress installed beside Knative Serving for its Routes (knative-ingress.json). */
export interface KnativeIngress {
  traefik: string;
}

export const KNATIVE_INGRESS: KnativeIngress = JSON.parse(
  readFileSync(new URL('../knative-ingress.json', import.meta.url), 'utf8'),
) as KnativeIngress;

export const TRAEFIK_MODULE = 'github.com/traefik/traefik/v3';

/** `<cache root>/traefik/<version>`, holding the one program `traefik`. */
export function traefikCacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  ingress: KnativeIngress = KNATIVE_INGRESS,
): string {
  return join(cacheRoot(env), 'traefik', ingress.traefik);
}

/** The image `npm run images -- knative` builds for Traefik. */
export function traefikImage(ingress: KnativeIngress = KNATIVE_INGRESS): string {
  return `${LOCAL_IMAGE_HOST}/traefik:${ingress.traefik}`;
}
