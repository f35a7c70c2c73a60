/**
 * The names of a CRD are accepted only when no other CRD of its group holds them: a conflict shows in
 * NamesAccepted (reason and message as kube-apiserver's naming controller words them), the CRD is not
 * Established and its resource is not served; once the holder is gone, the names are accepted.
 */
import {
  ApiextensionsV1Api,
  type V1CustomResourceDefinition,
  type V1CustomResourceDefinitionNames,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  installEstablished,
  rawRequest,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let extensions: ApiextensionsV1Api;
const group = `${uniqueName('names')}.example.com`;

beforeAll(async () => {
  target = await connect();
  extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
});
afterAll(() => target.stop());

function crd(names: V1CustomResourceDefinitionNames): V1CustomResourceDefinition {
  return {
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names,
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
    },
  };
}

/** The CRD once its naming controller has decided (NamesAccepted no longer Unknown or missing). */
async function decided(name: string): Promise<V1CustomResourceDefinition> {
  return eventually(async () => {
    const current = await extensions.readCustomResourceDefinition({ name });
    const accepted = current.status?.conditions?.find((condition) => condition.type === 'NamesAccepted');
    return accepted?.status === 'True' || accepted?.status === 'False' ? current : undefined;
  }, CONTROLLER_PATIENCE_MS);
}

function conditions(current: V1CustomResourceDefinition) {
  return (current.status?.conditions ?? []).map(({ type, status, reason, message }) => ({
    type,
    status,
    reason,
    message,
  }));
}

describe('CRD names', () => {
  beforeAll(() =>
    installEstablished(
      target,
      crd({ plural: 'alphas', singular: 'alpha', kind: 'Alpha', shortNames: ['al'] }),
    ),
  );

  it('refuses a kind another CRD of the group holds: NamesAccepted False, not Established, not served', async () => {
    await extensions.createCustomResourceDefinition({
      body: crd({ plural: 'betas', singular: 'beta', kind: 'Alpha', shortNames: ['al'] }),
    });
    const betas = await decided(`betas.${group}`);
    // The last conflict found names the condition: plural, singular, short names, kind, list kind.
    expect(conditions(betas)).toEqual([
      {
        type: 'NamesAccepted',
        status: 'False',
        reason: 'ListKindConflict',
        message: '"AlphaList" is already in use',
      },
      { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' },
    ]);
    expect(betas.status?.acceptedNames).toEqual({ plural: 'betas', singular: 'beta', kind: '' });
    const listed = await rawRequest(target, 'GET', `/apis/${group}/v1/namespaces/default/betas`);
    expect(listed.status).toBe(404);
  });

  it('refuses a singular name another CRD holds as its plural', async () => {
    await extensions.createCustomResourceDefinition({
      body: crd({ plural: 'gammas', singular: 'alphas', kind: 'Gamma' }),
    });
    const gammas = await decided(`gammas.${group}`);
    expect(conditions(gammas)[0]).toEqual({
      type: 'NamesAccepted',
      status: 'False',
      reason: 'SingularConflict',
      message: '"alphas" is already in use',
    });
    expect(gammas.status?.acceptedNames).toEqual({ plural: 'gammas', kind: 'Gamma', listKind: 'GammaList' });
  });

  it('accepts the names once the CRD that held them is gone', async () => {
    await extensions.deleteCustomResourceDefinition({ name: `alphas.${group}` });
    const betas = await eventually(async () => {
      const current = await extensions.readCustomResourceDefinition({ name: `betas.${group}` });
      return conditions(current).every((condition) => condition.status === 'True') ? current : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect(betas.status?.acceptedNames).toEqual({
      plural: 'betas',
      singular: 'beta',
      kind: 'Alpha',
      listKind: 'AlphaList',
      shortNames: ['al'],
    });
    const listed = await eventually(async () => {
      const reply = await rawRequest(target, 'GET', `/apis/${group}/v1/namespaces/default/betas`);
      return reply.status === 200 ? reply : undefined;
    }, CONTROLLER_PATIENCE_MS);
    expect((listed.json as { kind: string }).kind).toBe('AlphaList');
  });
});
