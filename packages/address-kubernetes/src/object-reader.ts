import type { KubeConfig } from '@kubernetes/client-node';
import type { ObjectReader, ObjectRef, ReadResult } from '@scoby/address';
import { apiErrorMessage } from './api-message.ts';
import { createApiGet, type ApiGet } from './api-get.ts';
import { objectPath } from './api-paths.ts';
import { createDiscovery } from './discovery.ts';

export interface ObjectReaderOptions {
  /** How long one API request may go unanswered. Default 30 s. */
  requestTimeoutMs?: number;
}

/**
 * An ObjectReader over the API server of `kubeConfig`. Every failure is a result: unknown kinds,
 * and the API server's message for missing, forbidden or otherwise unreadable objects (the
 * message of a transport error when the server cannot be reached, or of the timeout when it does
 * not answer).
 */
export function createObjectReader(kubeConfig: KubeConfig, options: ObjectReaderOptions = {}): ObjectReader {
  return readerOver(createApiGet(kubeConfig, options.requestTimeoutMs));
}

function readerOver(get: ApiGet): ObjectReader {
  const discover = createDiscovery(get);
  return {
    async get(ref: ObjectRef): Promise<ReadResult> {
      try {
        const discovered = await discover(ref.apiVersion, ref.kind);
        if (!('found' in discovered) || !discovered.found) return discovered;
        const response = await get(objectPath(ref, discovered.resource));
        return response.status === 200
          ? { found: true, object: response.body }
          : { found: false, message: apiErrorMessage(response) };
      } catch (error) {
        return { found: false, message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
