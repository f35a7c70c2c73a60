/** The example hook's behaviour as pure handlers (docs/spec/hooks-v1.md §4, §7). */
import { HookError, type HookHandlers, type HookRequest, type HookResponse } from '@scoby/hooks-v1/sdk';
import type { EnvVar, JsonObject, KubeObject } from '@scoby/kube-objects';
import type { ExampleHookOptions } from './options.ts';

export const HOOKED_ANNOTATION = 'example.triggermesh.io/hooked';
export const ADAPTER_CONTAINER = 'adapter';

type Settings = Required<Pick<ExampleHookOptions, 'envName' | 'envValue' | 'conditionType'>> &
  Pick<ExampleHookOptions, 'finalizeWhenCondition'>;

interface StatusCondition {
  type: string;
  status: string;
  [field: string]: unknown;
}

export function exampleHandlers(options: ExampleHookOptions = {}): Required<HookHandlers> {
  const settings: Settings = {
    envName: options.envName ?? 'EXAMPLE_HOOK',
    envValue: options.envValue ?? 'on',
    conditionType: options.conditionType ?? 'HookChecked',
    finalizeWhenCondition: options.finalizeWhenCondition,
  };
  return {
    preReconcile: (request) => preReconcile(request, settings),
    finalize: (request) => finalize(request, settings),
  };
}

function preReconcile(request: HookRequest, settings: Settings): HookResponse {
  // The answered status replaces Scoby's working status, so it starts from the one received.
  const status: JsonObject = isObject(request.object.status) ? structuredClone(request.object.status) : {};
  status.annotations = {
    ...(isObject(status.annotations) ? status.annotations : {}),
    [HOOKED_ANNOTATION]: 'true',
  };
  status.conditions = withCondition(conditionsOf(request.object), {
    type: settings.conditionType,
    status: 'True',
    reason: 'HookOK',
    message: 'checked by the example hook',
  }) as JsonObject[];
  const answer: HookResponse = { object: { status } };
  const deployment = request.children?.['deployment'];
  const changed =
    deployment && withAdapterEnv(deployment, { name: settings.envName, value: settings.envValue });
  if (changed !== undefined) answer.children = { ...request.children, deployment: changed };
  return answer;
}

function finalize(request: HookRequest, settings: Settings): void {
  const awaited = settings.finalizeWhenCondition;
  if (awaited === undefined) return;
  const met = conditionsOf(request.object).some(
    (condition) => condition.type === awaited && condition.status === 'True',
  );
  if (!met) throw new HookError(`waiting for condition ${awaited}`, { status: 409 });
}

function conditionsOf(object: KubeObject): StatusCondition[] {
  const conditions: unknown = isObject(object.status) ? object.status.conditions : undefined;
  return Array.isArray(conditions) ? (conditions as unknown[]).filter(isCondition) : [];
}

/** The conditions with `condition` in place of the one of its type, or appended. */
function withCondition(conditions: StatusCondition[], condition: StatusCondition): StatusCondition[] {
  const index = conditions.findIndex((existing) => existing.type === condition.type);
  return index < 0 ? [...conditions, condition] : conditions.with(index, condition);
}

/** A copy of the Deployment with `env` set on its adapter container, or undefined without one. */
function withAdapterEnv(deployment: KubeObject, env: EnvVar): KubeObject | undefined {
  const copy = structuredClone(deployment);
  const containers = (copy.spec as { template?: { spec?: { containers?: unknown } } } | undefined)?.template
    ?.spec?.containers;
  const adapter = Array.isArray(containers)
    ? containers.find(
        (container): container is { name: string; env?: EnvVar[] } =>
          isObject(container) && container.name === ADAPTER_CONTAINER,
      )
    : undefined;
  if (adapter === undefined) return undefined;
  const vars = Array.isArray(adapter.env) ? adapter.env : [];
  const index = vars.findIndex((existing) => existing.name === env.name);
  adapter.env = index < 0 ? [...vars, env] : vars.with(index, env);
  return copy;
}

function isCondition(value: unknown): value is StatusCondition {
  return isObject(value) && typeof value.type === 'string' && typeof value.status === 'string';
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
