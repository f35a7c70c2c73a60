/**
 * Throughput of renderEnv on a realistic instance (~200 leaves) with ~20 customisations, against a
 * baseline that only flattens the same spec into sorted NAME=value pairs. Run: npx nx run env:bench
 */
import type { NormalizedParameterConfiguration } from '@scoby/registration';
import { renderEnv } from '../src/index.ts';
import type { RenderInput, RenderLookups } from '../src/index.ts';

function buildSpec(): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    name: 'orders',
    sink: { ref: { apiVersion: 'v1', kind: 'Service', name: 'collector' }, uri: '/events' },
    credentials: { secretName: 'db-secret', passwordKey: 'password', user: 'svc-orders' },
    settings: { cmName: 'db-settings', key: 'pool.conf' },
    tags: ['blue', 'green', 'canary'],
    rules: [
      { match: 'a<b', action: 'drop' },
      { match: 'x&y', action: 'keep' },
    ],
  };
  for (let s = 0; s < 8; s++) {
    const service: Record<string, unknown> = {
      host: `svc-${s}.internal`,
      port: 8000 + s,
      enabled: s % 2 === 0,
      weight: s / 7,
      ports: [80, 443, 8080 + s],
    };
    for (let g = 0; g < 3; g++) {
      service[`group${g}`] = {
        id: `g-${s}-${g}`,
        limit: 100 * g,
        ratio: 0.25 * g,
        mode: g === 1 ? 'fast' : 'safe',
        labels: { team: `team-${g}`, tier: `tier-${s}` },
      };
    }
    spec[`service${s}`] = service;
  }
  return spec;
}

function countLeaves(value: unknown): number {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 1;
  return Object.values(value).reduce<number>((sum, child) => sum + countLeaves(child), 0);
}

const config: NormalizedParameterConfiguration = {
  global: { defaultPrefix: 'APP_' },
  fromSpec: {
    skip: [{ path: 'spec.service7' }, { path: 'spec.service1.group2' }, { path: '$.spec.credentials.user' }],
    toEnv: [
      { path: 'spec.sink', name: 'K_SINK', valueFrom: { builtInFunc: { name: 'resolveAddress' } } },
      {
        path: 'spec.credentials',
        name: 'DB_PASSWORD',
        valueFrom: {
          secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.passwordKey' },
        },
      },
      {
        path: 'spec.settings',
        valueFrom: {
          configMapPath: { name: 'spec.settings.cmName', key: 'spec.settings.key', optional: true },
        },
      },
      { path: 'spec.service0.host', name: 'PRIMARY_HOST' },
      { path: 'spec.service0.port', name: 'PRIMARY_PORT' },
      { path: 'spec.service2.group0', name: 'GROUP_ZERO' },
      { path: 'spec.service3.timeout', default: { value: '30' } },
      { path: 'spec.service4.retries', default: { value: '5' } },
      { path: 'spec.cache.sizeMb', default: { value: '64' } },
      { path: 'spec.token', name: 'API_TOKEN', default: { secret: { name: 'api', key: 'token' } } },
      { path: 'spec.rules', name: 'RULES_JSON' },
      { path: '.spec.service5.group1.labels', name: 'LABELS' },
    ],
    toVolume: [],
  },
  add: {
    toEnv: [
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
      { name: 'FLAGS', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' } },
    ],
    toVolume: [],
  },
};

const addresses = new Map([['collector', 'http://collector.shop.svc.cluster.local/events']]);
const lookups: RenderLookups = {
  controllerNamespace: 'triggermesh',
  controllerConfigMap: (name) => (name === 'scoby-flags' ? { flags: 'beta' } : undefined),
  resolveAddress: async (destination) => {
    const ref = destination.ref as { name: string };
    const url = addresses.get(ref.name);
    return url === undefined ? { ok: false, message: 'not found' } : { ok: true, url };
  },
};

/** The baseline: a plain recursive walk into sorted NAME=value pairs, no configuration at all. */
function flatten(spec: Record<string, unknown>): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const walk = (node: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(node)) {
      const name = prefix === '' ? key.toUpperCase() : `${prefix}_${key.toUpperCase()}`;
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        walk(value as Record<string, unknown>, name);
      } else if (Array.isArray(value)) {
        out.push({
          name,
          value: value.some((v) => typeof v === 'object') ? JSON.stringify(value) : value.join(','),
        });
      } else if (value !== null) {
        out.push({ name, value: String(value) });
      }
    }
  };
  walk(spec, '');
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const spec = buildSpec();
const input: RenderInput = {
  instance: {
    apiVersion: 'example.org/v1',
    kind: 'Thing',
    metadata: { name: 'orders', namespace: 'shop' },
    spec,
  },
  config,
};

async function timeOurs(iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await renderEnv(input, lookups);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** renderEnv when the caller also reads the (lazily built) source map, as statusConfiguration.add does. */
async function timeOursWithSourceMap(iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) void (await renderEnv(input, lookups)).sourceMap;
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function timeBaseline(iterations: number): Promise<number> {
  const start = process.hrtime.bigint();
  // Awaited like renderEnv so both loops pay the same per-call scheduling cost.
  for (let i = 0; i < iterations; i++) await Promise.resolve(flatten(spec));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function main(): Promise<void> {
  const check = await renderEnv(input, lookups);
  if (check.errors.length > 0) throw new Error(`benchmark input does not render: ${check.errors.join('; ')}`);
  console.log(
    `spec leaves: ${countLeaves(spec)}, variables: ${check.env.length} (baseline ${flatten(spec).length})`,
  );

  const batch = 500;
  for (let i = 0; i < 10; i++) {
    await timeOurs(batch);
    await timeOursWithSourceMap(batch);
    await timeBaseline(batch);
  }
  // Short alternating rounds; the medians resist the noise of a machine shared with other work.
  const ours: number[] = [];
  const baseline: number[] = [];
  const withSourceMap: number[] = [];
  const ratios: number[] = [];
  const ratiosWithSourceMap: number[] = [];
  for (let round = 0; round < 60; round++) {
    const oursTime = await timeOurs(batch);
    const withSourceMapTime = await timeOursWithSourceMap(batch);
    const baselineTime = await timeBaseline(batch);
    ours.push(oursTime);
    withSourceMap.push(withSourceMapTime);
    baseline.push(baselineTime);
    ratios.push(oursTime / baselineTime);
    ratiosWithSourceMap.push(withSourceMapTime / baselineTime);
  }
  const rate = (times: number[]): number => Math.round(batch / median(times));
  console.log(`renderEnv:               ${rate(ours)} renders/s (median of ${ours.length} rounds)`);
  console.log(`renderEnv + sourceMap:   ${rate(withSourceMap)} renders/s`);
  console.log(`baseline:                ${rate(baseline)} renders/s`);
  console.log(
    `ratio ours/baseline (time per render): median ${median(ratios).toFixed(2)}, ` +
      `best rounds ${(Math.min(...ours) / Math.min(...baseline)).toFixed(2)}; ` +
      `with sourceMap read: median ${median(ratiosWithSourceMap).toFixed(2)}`,
  );
}

await main();
