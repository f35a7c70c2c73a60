import type { FormFactorPlugin } from '@scoby/formfactor';
import { DEPLOYMENT_BLOCK_SCHEMA, DEPLOYMENT_FIELD_MESSAGES, type DeploymentBlock } from './block.ts';
import { renderDeployment } from './render.ts';
import { deploymentStatus } from './status.ts';

/** The built-in, default form factor: a Deployment, plus a Service when `service` is configured. */
export const deploymentFormFactor: FormFactorPlugin<DeploymentBlock> = {
  name: 'deployment',
  hookName: 'deployment',
  blockSchema: DEPLOYMENT_BLOCK_SCHEMA,
  fieldMessages: DEPLOYMENT_FIELD_MESSAGES,
  requiredApis: ['apps/v1', 'v1'],
  // The Service kind is managed even without a configured Service, so a hook may add one (§2).
  managedKinds: [
    { apiVersion: 'apps/v1', kind: 'Deployment' },
    { apiVersion: 'v1', kind: 'Service' },
  ],
  conditionTypes: ['DeploymentReady', 'ServiceReady'],
  conditionTypesFor: (block) =>
    block.service === undefined ? ['DeploymentReady'] : ['DeploymentReady', 'ServiceReady'],
  render: renderDeployment,
  status: deploymentStatus,
  observedFields: ['status'],
};
