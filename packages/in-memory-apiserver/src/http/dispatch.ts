import { parse as parseYaml } from 'yaml';
import type { Cluster } from '../cluster.ts';
import { groupVersion, keyOf } from '../resource-type.ts';
import { badRequest, ok, unsupportedBodyMediaType, type Outcome, type Reply } from '../status.ts';
import { createObject } from '../verbs/create.ts';
import { deleteObject, parseDeleteOptions } from '../verbs/delete.ts';
import { patchObject, PATCH_TYPES } from '../verbs/patch.ts';
import { getObject, listObjects, parseFilter } from '../verbs/read.ts';
import { getScale, patchScale, updateScale, type ScaleTarget } from '../verbs/scale.ts';
import { updateObject, type Subresource } from '../verbs/update.ts';
import { fieldValidationOf, warningHeader, type Decoding } from '../validation/field-validation.ts';
import type { WatchRequest } from '../watch.ts';
import type { ResolvedRequest } from './resolve.ts';

export interface RequestBody {
  contentType: string;
  text: string;
}

export type Dispatched = { reply: Reply } | { watch: Omit<WatchRequest, 'sink'> };

/** The media types a body may have (kube-apiserver takes protobuf too, which this server does not read). */
const BODY_MEDIA_TYPES = ['application/json', 'application/yaml'];

export function parseBody(body: RequestBody): Outcome<unknown> {
  if (body.text.trim() === '') return ok(undefined);
  const mediaType = body.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!BODY_MEDIA_TYPES.includes(mediaType)) return unsupportedBodyMediaType(BODY_MEDIA_TYPES);
  try {
    return ok(mediaType === 'application/yaml' ? parseYaml(body.text) : JSON.parse(body.text));
  } catch (error) {
    return badRequest(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
  }
}

function reply(outcome: Outcome<unknown>, code: number, decoding?: Decoding): Dispatched {
  if (!outcome.ok) return { reply: outcome.failure };
  const warnings = decoding?.warnings ?? [];
  return {
    reply: {
      code,
      body: outcome.value,
      ...(warnings.length > 0 ? { headers: { Warning: warningHeader(warnings) } } : {}),
    },
  };
}

function replyOf(outcome: Outcome<Reply>): Dispatched {
  return { reply: outcome.ok ? outcome.value : outcome.failure };
}

function optionalNumber(text: string | null): number | undefined {
  return text === null || text === '' ? undefined : Number(text);
}

/** GET, PUT and PATCH of …/scale. */
function dispatchScale(
  cluster: Cluster,
  request: ResolvedRequest,
  query: URLSearchParams,
  body: RequestBody,
): Dispatched {
  const target = {
    type: request.type as ScaleTarget['type'],
    version: request.version,
    namespace: request.namespace,
    name: request.name ?? '',
  };
  const dryRun = query.get('dryRun') === 'All';
  if (request.verb === 'get') return reply(getScale(cluster, target), 200);
  if (request.verb === 'patch') {
    const contentType = body.contentType.split(';')[0]?.trim() ?? '';
    return reply(patchScale(cluster, target, { contentType, text: body.text }, dryRun), 200);
  }
  const parsed = parseBody(body);
  if (!parsed.ok) return { reply: parsed.failure };
  return reply(updateScale(cluster, target, parsed.value, dryRun), 200);
}

/** Runs a resolved resource request against the cluster. */
export function dispatch(
  cluster: Cluster,
  request: ResolvedRequest,
  query: URLSearchParams,
  body: RequestBody,
): Dispatched {
  const { type, version, namespace, verb } = request;
  const name = request.name ?? '';
  const dryRun = query.get('dryRun') === 'All';
  const subresource = request.subresource as Subresource;
  if (request.subresource === 'scale') return dispatchScale(cluster, request, query, body);
  const decoding: Decoding = { fieldValidation: fieldValidationOf(query), warnings: [] };
  switch (verb) {
    case 'get':
      return reply(getObject(cluster, type, version, namespace, name), 200);
    case 'list':
      return reply(listObjects(cluster, type, version, namespace, query), 200);
    case 'watch': {
      const filter = parseFilter(query, type, version);
      if (!filter.ok) return { reply: filter.failure };
      const byName = request.name;
      return {
        watch: {
          type,
          version,
          namespace,
          filter:
            byName === undefined
              ? filter.value
              : { matches: (object) => object.metadata.name === byName && filter.value.matches(object) },
          resourceVersion: query.get('resourceVersion') ?? undefined,
          bookmarks: query.get('allowWatchBookmarks') === 'true',
          timeoutSeconds: optionalNumber(query.get('timeoutSeconds')),
        },
      };
    }
    case 'create': {
      const parsed = parseBody(body);
      if (!parsed.ok) return { reply: parsed.failure };
      const fieldManager = query.get('fieldManager') ?? undefined;
      return reply(
        createObject(cluster, type, version, namespace, parsed.value, { dryRun, fieldManager, decoding }),
        201,
        decoding,
      );
    }
    case 'update': {
      const parsed = parseBody(body);
      if (!parsed.ok) return { reply: parsed.failure };
      const existed = cluster.store.get(keyOf(type), namespace, name) !== undefined;
      return reply(
        updateObject(
          cluster,
          { type, version, namespace, name, subresource },
          parsed.value,
          dryRun,
          decoding,
        ),
        existed ? 200 : 201,
        decoding,
      );
    }
    case 'patch': {
      const existed = cluster.store.get(keyOf(type), namespace, name) !== undefined;
      const contentType = body.contentType.split(';')[0]?.trim() ?? '';
      const outcome = patchObject(
        cluster,
        { type, version, namespace, name, subresource },
        {
          contentType,
          text: body.text,
          fieldManager: query.get('fieldManager') ?? undefined,
          force: query.get('force') === 'true',
          dryRun,
          decoding,
        },
      );
      return reply(outcome, !existed && contentType === PATCH_TYPES.apply ? 201 : 200, decoding);
    }
    case 'delete': {
      const parsed = parseBody(body);
      if (!parsed.ok) return { reply: parsed.failure };
      const options = parseDeleteOptions(parsed.value, query);
      if (!options.ok) return { reply: options.failure };
      return replyOf(deleteObject(cluster, type, namespace, name, options.value));
    }
    case 'deletecollection': {
      const parsed = parseBody(body);
      if (!parsed.ok) return { reply: parsed.failure };
      const options = parseDeleteOptions(parsed.value, query);
      if (!options.ok) return { reply: options.failure };
      const filter = parseFilter(query, type, version);
      if (!filter.ok) return { reply: filter.failure };
      const items: unknown[] = [];
      for (const object of cluster.store
        .list(keyOf(type), namespace)
        .filter((candidate) => filter.value.matches(candidate))) {
        const deleted = deleteObject(
          cluster,
          type,
          object.metadata.namespace,
          object.metadata.name ?? '',
          options.value,
        );
        if (deleted.ok) items.push(object);
      }
      return {
        reply: {
          code: 200,
          body: {
            kind: type.listKind,
            apiVersion: groupVersion(type.group, version),
            metadata: { resourceVersion: String(cluster.store.resourceVersion) },
            items,
          },
        },
      };
    }
  }
}
