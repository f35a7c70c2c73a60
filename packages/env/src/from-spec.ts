import { isPlainObject, jsonTypeName, type EnvVar, type SecretKeySelector } from '@scoby/kube-objects';
import { selector } from './selector.ts';
import type { ResolvedAddresses } from './address.ts';
import { generatedName } from './default-rendering.ts';
import { TIER_GENERATED, TIER_NAMED } from './collisions.ts';
import type { RenderOutput } from './output.ts';
import { formatValue } from './format-value.ts';
import { literalValue } from './literal-value.ts';
import type { Plan, ToEnvInstruction, ToVolumeInstruction } from './plan.ts';
import { specReferenceReader, type ReferenceReader } from './references.ts';
import { valueAt } from './spec-path.ts';
import { buildVolume } from './volumes.ts';

/** The plan's toEnv and toVolume instructions, in byte order of their paths (the §9 error order). */
export function renderInstructions(
  plan: Plan,
  spec: Record<string, unknown>,
  addresses: ResolvedAddresses,
  out: RenderOutput,
): void {
  for (const instruction of plan.instructions) {
    const value = valueAt(spec, instruction.segments);
    const read = specReferenceReader(spec, plan.references, instruction.path, out.errors);
    if (instruction.kind === 'toVolume') renderToVolume(instruction, value, read, out);
    else renderToEnv(instruction, value, plan.prefix, read, addresses, out);
  }
}

/** fromSpec.toEnv (docs/spec/env.md §6.3, §6.4). */
function renderToEnv(
  { entry, path, segments }: ToEnvInstruction,
  value: unknown,
  prefix: string,
  read: ReferenceReader,
  addresses: ResolvedAddresses,
  out: RenderOutput,
): void {
  const name = entry.name ?? generatedName(prefix, segments);
  const tier = entry.name === undefined ? TIER_GENERATED : TIER_NAMED;
  const emit = (env: EnvVar, literal?: string): void => {
    out.candidates.push({ env, tier, source: path, rank: segments.length, literal });
  };
  // Spec-derived values are escaped; the source map keeps them as the process will see them.
  const emitFromSpec = (value: string): void => emit({ name, value: literalValue(value) }, value);

  if (value === undefined) {
    const fallback = entry.default;
    if (fallback?.value !== undefined) emit({ name, value: fallback.value }, fallback.value);
    else if (fallback?.configMap !== undefined)
      emit({ name, valueFrom: { configMapKeyRef: selector(fallback.configMap) } });
    else if (fallback?.secret !== undefined)
      emit({ name, valueFrom: { secretKeyRef: selector(fallback.secret) } });
    return;
  }

  const { configMapPath, secretPath, builtInFunc } = entry.valueFrom ?? {};
  if (configMapPath !== undefined) {
    const configMapKeyRef = keySelector(configMapPath, 'valueFrom.configMapPath', read);
    if (configMapKeyRef !== undefined) emit({ name, valueFrom: { configMapKeyRef } });
  } else if (secretPath !== undefined) {
    const secretKeyRef = keySelector(secretPath, 'valueFrom.secretPath', read);
    if (secretKeyRef !== undefined) emit({ name, valueFrom: { secretKeyRef } });
  } else if (builtInFunc === undefined) {
    const formatted = formatValue(value);
    if (formatted !== undefined) emitFromSpec(formatted);
  } else if (builtInFunc.name === 'resolveAddress') {
    const url = resolvedUrl(path, value, addresses, out);
    if (url !== undefined) emitFromSpec(url);
  }
}

function keySelector(
  written: { name: string; key: string; optional?: boolean },
  field: string,
  read: ReferenceReader,
): SecretKeySelector | undefined {
  const name = read(written.name, `${field}.name`);
  const key = read(written.key, `${field}.key`);
  if (name === undefined || key === undefined) return undefined;
  return written.optional === undefined ? { name, key } : { name, key, optional: written.optional };
}

function resolvedUrl(
  path: string,
  value: unknown,
  addresses: ResolvedAddresses,
  out: RenderOutput,
): string | undefined {
  if (!isPlainObject(value)) {
    out.errors.push(
      `${path}: resolveAddress: expected an object with ref and/or uri, got ${jsonTypeName(value)}`,
    );
    return undefined;
  }
  const resolution = addresses.get(path);
  if (resolution === undefined) throw new Error(`the address at "${path}" was not resolved before rendering`);
  if (resolution.ok) return resolution.url;
  // The addressed object may appear or gain its address without any change to the instance.
  out.clusterErrors++;
  out.errors.push(`${path}: resolveAddress: ${resolution.message}`);
  return undefined;
}

/** fromSpec.toVolume (docs/spec/env.md §6.5): nothing when the path is absent. */
function renderToVolume(
  { entry }: ToVolumeInstruction,
  value: unknown,
  read: ReferenceReader,
  out: RenderOutput,
): void {
  if (value === undefined) return;
  const volume = buildVolume(entry.name, entry.mountFrom, read);
  if (volume === undefined) return;
  out.volumes.push(volume);
  out.volumeMounts.push({ name: entry.name, mountPath: entry.mountPath });
}
