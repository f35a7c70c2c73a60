export {
  KNATIVE_SERVICE_BLOCK_SCHEMA,
  KNATIVE_SERVICE_FIELD_MESSAGES,
  type KnativeServiceBlock,
} from './block.ts';
export { knativeServiceFormFactor } from './plugin.ts';
export {
  MAX_SCALE_ANNOTATION,
  MIN_SCALE_ANNOTATION,
  renderKnativeService,
  VISIBILITY_LABEL,
} from './render.ts';
export {
  KNATIVE_UNKNOWN_REASON,
  knativeServiceAddress,
  knativeServiceReady,
  knativeServiceStatus,
} from './status.ts';
