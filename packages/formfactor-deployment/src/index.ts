export { DEPLOYMENT_BLOCK_SCHEMA, DEPLOYMENT_FIELD_MESSAGES, type DeploymentBlock } from './block.ts';
export { deploymentFormFactor } from './plugin.ts';
export { renderDeployment } from './render.ts';
export { deploymentReady, deploymentStatus, serviceAddress, serviceReady } from './status.ts';
