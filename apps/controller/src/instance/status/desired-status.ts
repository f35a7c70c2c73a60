/**
 * The status a reconcile would store (docs/spec/children-and-status.md §1 steps 10–11, §7.2): the working status
 * completed, then pruned with the CRD's status schema as the API server would store it, so fields the
 * server would drop never cause a write.
 */
import { pruneAndValidate } from '@scoby/structural-schema';
import { completeStatus, type Status, type StatusCompletion } from './instance-status.ts';

export function desiredStatus(working: Status, completion: StatusCompletion): Status {
  const completed = completeStatus(working, completion);
  const schema = completion.features.schema;
  return schema ? (pruneAndValidate(schema, completed, { root: false }).value as Status) : completed;
}
