// A TypeScript user's view of the published packages: the declarations resolve through `exports`
// (`types`) and describe the API. The pack-and-install test compiles this file with tsc --noEmit.
import { createFormFactorRegistry, standardMetadata, type FormFactorPlugin } from '@scoby/formfactor';
import { HookError, startHookServer, type HookResponse, type HookServer } from '@scoby/hooks-v1';
import { API_VERSION, type CRDRegistration } from '@scoby/registration';

interface PodBlock {
  restartPolicy: 'Always' | 'Never';
}

export const podPlugin: FormFactorPlugin<PodBlock> = {
  name: 'pod',
  blockSchema: {
    type: 'object',
    properties: { restartPolicy: { type: 'string', enum: ['Always', 'Never'] } },
  },
  requiredApis: ['v1'],
  managedKinds: [{ apiVersion: 'v1', kind: 'Pod' }],
  conditionTypes: ['PodReady'],
  render: (input) => ({
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: standardMetadata(input),
      spec: { ...input.podSpec, restartPolicy: input.block.restartPolicy },
    },
  }),
  status: () => ({
    conditions: { PodReady: { status: 'Unknown', reason: 'PodNotObserved', message: '' } },
    address: { kind: 'none' },
  }),
};

export const registry = createFormFactorRegistry({ builtIns: [], plugins: [podPlugin] });

export const hook: Promise<HookServer> = startHookServer({
  preReconcile: (request): HookResponse => {
    if (request.object.metadata?.name === undefined) throw new HookError('no name', { status: 400 });
    return {};
  },
});

export const registration: CRDRegistration = {
  apiVersion: API_VERSION,
  kind: 'CRDRegistration',
  metadata: { name: 'greeter' },
  spec: {
    crd: 'greeters.samples.scoby.dev',
    workload: { fromImage: { repo: 'registry.example.com/greeter:1.0.0' } },
  },
};
