import type { FormFactorPlugin } from '@scoby/formfactor';
import {
  KNATIVE_SERVICE_BLOCK_SCHEMA,
  KNATIVE_SERVICE_FIELD_MESSAGES,
  type KnativeServiceBlock,
} from './block.ts';
import { renderKnativeService } from './render.ts';
import { knativeServiceStatus } from './status.ts';

/** The built-in Knative Serving form factor; hooks know it as `ksvc`. */
export const knativeServiceFormFactor: FormFactorPlugin<KnativeServiceBlock> = {
  name: 'knativeService',
  hookName: 'ksvc',
  blockSchema: KNATIVE_SERVICE_BLOCK_SCHEMA,
  fieldMessages: KNATIVE_SERVICE_FIELD_MESSAGES,
  requiredApis: ['serving.knative.dev/v1'],
  managedKinds: [{ apiVersion: 'serving.knative.dev/v1', kind: 'Service' }],
  conditionTypes: ['KnativeServiceReady'],
  render: renderKnativeService,
  status: knativeServiceStatus,
  observedFields: ['status'],
};
