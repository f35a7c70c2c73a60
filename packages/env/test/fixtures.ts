import type { NormalizedParameterConfiguration } from '@scoby/registration';
import { compactJson } from '@scoby/kube-objects';
import { renderEnv } from '../src/render.ts';
import type { AddressResolution, RenderInstance, RenderLookups, RenderResult } from '../src/types.ts';

type Configured = {
  global?: Partial<NormalizedParameterConfiguration['global']>;
  fromSpec?: Partial<NormalizedParameterConfiguration['fromSpec']>;
  add?: Partial<NormalizedParameterConfiguration['add']>;
};

/** A normalised configuration with empty defaults for everything not given. */
export function config(parts: Configured = {}): NormalizedParameterConfiguration {
  return {
    global: { defaultPrefix: '', ...parts.global },
    fromSpec: { skip: [], toEnv: [], toVolume: [], ...parts.fromSpec },
    add: { toEnv: [], toVolume: [], ...parts.add },
  };
}

/** An instance; `spec` is left out entirely when `undefined` is passed. */
export function instance(spec: unknown, namespace = 'default'): RenderInstance {
  const base: RenderInstance = {
    apiVersion: 'example.org/v1',
    kind: 'Thing',
    metadata: { name: 'thing', namespace },
  };
  return spec === undefined ? base : { ...base, spec };
}

export interface FakeWorld {
  /** Destination (compact JSON) → resolution; anything else fails with a recognisable message. */
  addresses?: Record<string, AddressResolution>;
  /** Controller ConfigMaps in `triggermesh` by name. */
  configMaps?: Record<string, Record<string, string>>;
}

/** Lookups backed by plain data; resolver calls are recorded for assertions. */
export function lookups(world: FakeWorld = {}): RenderLookups & { calls: [string, string][] } {
  const calls: [string, string][] = [];
  return {
    calls,
    controllerNamespace: 'triggermesh',
    controllerConfigMap: (name) => world.configMaps?.[name],
    resolveAddress: async (destination, namespace) => {
      const key = compactJson(destination);
      calls.push([key, namespace]);
      return world.addresses?.[key] ?? { ok: false, message: `no address for ${key}` };
    },
  };
}

export function render(
  spec: unknown,
  parts: Configured = {},
  world: FakeWorld = {},
  namespace = 'default',
): Promise<RenderResult> {
  return renderEnv({ instance: instance(spec, namespace), config: config(parts) }, lookups(world));
}

/** `NAME=value` pairs for literal variables, in output order. */
export function literals(result: RenderResult): string[] {
  return result.env.map((env) =>
    env.value === undefined ? `${env.name} ← ${compactJson(env.valueFrom)}` : `${env.name}=${env.value}`,
  );
}

export function collision(message: string): { reason: 'EnvNameCollision'; message: string } {
  return { reason: 'EnvNameCollision', message };
}
