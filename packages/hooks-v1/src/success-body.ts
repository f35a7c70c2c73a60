/** Reading the body of a 2xx pre-reconcile answer (docs/spec/hooks-v1.md §5.1, §5.2, §5.3). */
import type { JsonObject, KubeObject } from '@scoby/kube-objects';
import { validateChildren } from './children.ts';
import { isJsonObject, jsonEqual, parseJson } from './json.ts';
import type { HookCall, HookSuccess } from './types.ts';

/** The success, or the detail of the `invalid response: <detail>` message. */
export type SuccessBodyReading = HookSuccess | { ok: false; detail: string };

type SentCall = Pick<HookCall, 'object' | 'children' | 'managedKinds' | 'formFactor' | 'instanceNamespace'>;

export function readSuccessBody(text: string, call: SentCall): SuccessBodyReading {
  if (text.trim() === '') return { ok: true };
  const body = parseJson(text);
  if (body === null) return { ok: true };
  if (!isJsonObject(body)) return { ok: false, detail: 'body is not a JSON object' };

  const result: HookSuccess = { ok: true };
  const { object, children } = body;
  if (!isAbsentOrEmpty(object)) {
    if (!isJsonObject(object)) return { ok: false, detail: 'object is not a JSON object' };
    if (object.status !== undefined && !isJsonObject(object.status)) {
      return { ok: false, detail: 'object.status is not a JSON object' };
    }
    // Only the status is taken (§5.2); the rest is not kept, so the answer's bulk is not held.
    if (object.status !== undefined) result.object = { status: object.status };
    const ignored = ignoredObjectChanges(object, call.object);
    if (ignored.length > 0) result.objectChangesIgnored = ignored;
  }
  if (!isAbsentOrEmpty(children)) {
    if (!isJsonObject(children)) return { ok: false, detail: 'children is not a JSON object' };
    const [problem] = validateChildren(children, { ...call, sent: call.children ?? {} });
    if (problem !== undefined) return { ok: false, detail: `${problem.path}: ${problem.problem}` };
    result.children = children as unknown as Record<string, KubeObject>;
  }
  return result;
}

function isAbsentOrEmpty(value: unknown): boolean {
  return value === undefined || value === null || (isJsonObject(value) && Object.keys(value).length === 0);
}

/** The fields Scoby does not take from a hook but whose change a person should hear about (§5.2). */
function ignoredObjectChanges(answer: JsonObject, sent: KubeObject): string[] {
  const answerMetadata = isJsonObject(answer.metadata) ? answer.metadata : {};
  const watched: [path: string, answered: unknown, sent: unknown][] = [
    ['spec', answer.spec, sent.spec],
    ['metadata.labels', answerMetadata.labels, sent.metadata.labels],
    ['metadata.annotations', answerMetadata.annotations, sent.metadata.annotations],
  ];
  return watched
    .filter(([, answered, original]) => answered !== undefined && !jsonEqual(answered, original))
    .map(([path]) => path);
}
