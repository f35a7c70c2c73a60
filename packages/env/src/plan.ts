import {
  parsePath,
  type FromSpecToVolume,
  type NormalizedFromSpecToEnv,
  type NormalizedParameterConfiguration,
  type ParsedPath,
} from '@scoby/registration';
import { compareByteOrder } from '@scoby/kube-objects';

const CONFIG_PATH = 'spec.workload.parameterConfiguration';

interface Located {
  /** Normalised path, e.g. `spec.a.b`. */
  path: string;
  segments: string[];
}
export type SkipInstruction = Located & { kind: 'skip' };
export type ToEnvInstruction = Located & { kind: 'toEnv'; entry: NormalizedFromSpecToEnv };
export type ToVolumeInstruction = Located & { kind: 'toVolume'; entry: FromSpecToVolume };
export type Instruction = SkipInstruction | ToEnvInstruction | ToVolumeInstruction;

/** One node per path segment of an effective instruction; `covered` marks the instruction's own node. */
export interface CoverageNode {
  covered: boolean;
  children: Map<string, CoverageNode>;
}

/** A configuration compiled once for every instance rendered with it. */
export interface Plan {
  config: NormalizedParameterConfiguration;
  prefix: string;
  /** Configuration defects validation should have caught; reported as render errors. */
  problems: string[];
  coverage: CoverageNode;
  /** Effective toEnv and toVolume instructions, in byte order of their paths (the §9 order). */
  instructions: (ToEnvInstruction | ToVolumeInstruction)[];
  /** toEnv instructions needing `resolveAddress`. */
  addressInstructions: ToEnvInstruction[];
  /** configMapPath / secretPath references, parsed, by their written form. */
  references: Map<string, ParsedPath>;
}

const PRECEDENCE = { skip: 0, toVolume: 1, toEnv: 2 } as const;

const cache = new WeakMap<NormalizedParameterConfiguration, Plan>();

/** The compiled plan of a configuration, cached by the configuration object's identity. */
export function planFor(config: NormalizedParameterConfiguration): Plan {
  let plan = cache.get(config);
  if (plan === undefined) {
    plan = compilePlan(config);
    cache.set(config, plan);
  }
  return plan;
}

function compilePlan(config: NormalizedParameterConfiguration): Plan {
  const problems: string[] = [];
  const byPath = new Map<string, Instruction>();
  const consider = (written: string, field: string, make: (located: Located) => Instruction): void => {
    const parsed = parsePath(written, 'spec');
    if (!parsed.ok) {
      problems.push(`${CONFIG_PATH}.${field}: ${parsed.message}`);
      return;
    }
    const instruction = make({ path: parsed.normalized, segments: parsed.segments });
    const existing = byPath.get(instruction.path);
    if (existing === undefined || PRECEDENCE[instruction.kind] < PRECEDENCE[existing.kind]) {
      byPath.set(instruction.path, instruction);
    }
  };
  config.fromSpec.skip.forEach((entry, i) =>
    consider(entry.path, `fromSpec.skip[${i}].path`, (at) => ({ kind: 'skip', ...at })),
  );
  config.fromSpec.toVolume.forEach((entry, i) =>
    consider(entry.path, `fromSpec.toVolume[${i}].path`, (at) => ({ kind: 'toVolume', entry, ...at })),
  );
  config.fromSpec.toEnv.forEach((entry, i) => {
    const builtIn = entry.valueFrom?.builtInFunc;
    if (builtIn !== undefined && builtIn.name !== 'resolveAddress') {
      problems.push(
        `${CONFIG_PATH}.fromSpec.toEnv[${i}].valueFrom.builtInFunc.name: unknown built-in function "${builtIn.name}" (available: "resolveAddress")`,
      );
    }
    consider(entry.path, `fromSpec.toEnv[${i}].path`, (at) => ({ kind: 'toEnv', entry, ...at }));
  });

  const coverage: CoverageNode = { covered: false, children: new Map() };
  const effective: Instruction[] = [];
  // Ancestors have fewer segments, so visiting shorter paths first lets each path see whether an
  // ancestor already covers it (suppression, docs/spec/env.md §5 rule 2).
  for (const instruction of [...byPath.values()].sort((a, b) => a.segments.length - b.segments.length)) {
    if (cover(coverage, instruction.segments)) effective.push(instruction);
  }
  const instructions = effective
    .filter((instruction) => instruction.kind !== 'skip')
    .sort((a, b) => compareByteOrder(a.path, b.path));

  const references = new Map<string, ParsedPath>();
  for (const instruction of instructions) {
    for (const written of referencesOf(instruction)) references.set(written, parsePath(written, 'spec'));
  }
  return {
    config,
    prefix: config.global.defaultPrefix,
    problems,
    coverage,
    instructions,
    addressInstructions: instructions.filter(
      (instruction): instruction is ToEnvInstruction =>
        instruction.kind === 'toEnv' && instruction.entry.valueFrom?.builtInFunc?.name === 'resolveAddress',
    ),
    references,
  };
}

/** Marks `segments` as covered unless an ancestor already is; true when the instruction takes effect. */
function cover(root: CoverageNode, segments: readonly string[]): boolean {
  let node = root;
  for (const segment of segments.slice(1)) {
    if (node.covered) return false;
    let child = node.children.get(segment);
    if (child === undefined) {
      child = { covered: false, children: new Map() };
      node.children.set(segment, child);
    }
    node = child;
  }
  node.covered = true;
  return true;
}

function referencesOf(instruction: ToEnvInstruction | ToVolumeInstruction): string[] {
  if (instruction.kind === 'toEnv') {
    const source = instruction.entry.valueFrom?.configMapPath ?? instruction.entry.valueFrom?.secretPath;
    return source === undefined ? [] : [source.name, source.key];
  }
  const { configMapPath, secretPath } = instruction.entry.mountFrom;
  const named = configMapPath?.name ?? secretPath?.secretName;
  const items = configMapPath?.items ?? secretPath?.items ?? [];
  return [...(named === undefined ? [] : [named]), ...items.map((item) => item.key)];
}
