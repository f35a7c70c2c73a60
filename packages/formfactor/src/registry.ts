/**
 * The available form factors: built-ins and loaded plugins. Resolves a registration's
 * spec.workload.formFactor to exactly one of them and serves as registration validation's catalogue.
 */
import { compareByteOrder, isPlainObject } from '@scoby/kube-objects';
import {
  FORM_FACTOR_PATH,
  KSTATUS_CONDITIONS,
  formFactorProblem,
  selectFormFactor,
  unknownFormFactorProblem,
  type FormFactorCatalog,
  type Problem,
} from '@scoby/registration';
import { type BlockChecker, createBlockSchemaCompiler } from './block-schema.ts';
import type { FormFactorPlugin, GroupVersionKind } from './contract.ts';

/** Names only the built-in form factors may use (docs/spec/children-and-status.md §11, item 1). */
export const RESERVED_FORM_FACTOR_NAMES: readonly string[] = ['deployment', 'knativeService', 'ksvc'];

export interface ResolvedFormFactor {
  plugin: FormFactorPlugin;
  name: string;
  /** The formFactor string sent to hooks. */
  hookName: string;
  /** Validated, with the schema's defaults applied. */
  block: Record<string, unknown>;
  /** The condition types this block reports (docs/spec/children-and-status.md §8.1). */
  conditionTypes: string[];
}

export type Resolution = { ok: true; formFactor: ResolvedFormFactor } | { ok: false; problems: Problem[] };

export interface FormFactorRegistry extends FormFactorCatalog {
  get(name: string): FormFactorPlugin | undefined;
  /** Rows 1–3 of docs/spec/registration.md §4 for spec.workload.formFactor. */
  resolve(formFactor: unknown): Resolution;
  /** The managed kinds of every form factor, without repeats: what pruning considers (§6). */
  allManagedKinds(): GroupVersionKind[];
}

export interface FormFactorSources {
  /**
   * Built-in form factors, in the order they are listed to users; they may use reserved names. The
   * controller passes `deployment` here, the default; without it a registration must choose one.
   */
  builtIns: readonly FormFactorPlugin[];
  /** Plugins; listed after the built-ins in byte order. */
  plugins: readonly FormFactorPlugin[];
}

export type RegistryCreation = { ok: true; registry: FormFactorRegistry } | { ok: false; messages: string[] };

function pluginRuleViolations(plugin: FormFactorPlugin): string[] {
  const label = `form factor plugin ${JSON.stringify(plugin.name)}`;
  const violations: string[] = [];
  if (RESERVED_FORM_FACTOR_NAMES.includes(plugin.name))
    violations.push(`${label}: the name is reserved for a built-in form factor`);
  if (plugin.hookName !== undefined && plugin.hookName !== plugin.name) {
    violations.push(
      `${label}: hookName ${JSON.stringify(plugin.hookName)} must equal the name, which is what hooks receive`,
    );
  }
  return violations;
}

export function createFormFactorRegistry(sources: FormFactorSources): RegistryCreation {
  const ordered = [
    ...sources.builtIns,
    ...[...sources.plugins].sort((a, b) => compareByteOrder(a.name, b.name)),
  ];
  const compile = createBlockSchemaCompiler();
  const messages = sources.plugins.flatMap(pluginRuleViolations);
  const byName = new Map<string, { plugin: FormFactorPlugin; check: BlockChecker }>();
  for (const plugin of ordered) {
    if (byName.has(plugin.name)) {
      messages.push(`form factor ${JSON.stringify(plugin.name)} is provided twice`);
      continue;
    }
    for (const managed of ['Ready', ...KSTATUS_CONDITIONS]) {
      if (plugin.conditionTypes.includes(managed)) {
        messages.push(
          `form factor ${JSON.stringify(plugin.name)}: condition type ${JSON.stringify(managed)} is managed by Scoby`,
        );
      }
    }
    const compiled = compile(plugin);
    if (compiled.ok) byName.set(plugin.name, { plugin, check: compiled.check });
    else messages.push(compiled.message);
  }
  if (messages.length > 0) return { ok: false, messages };

  const names = [...byName.keys()];

  function validateBlock(name: string, block: unknown): Problem[] {
    const entry = byName.get(name);
    return entry === undefined ? [unknownFormFactorProblem(name, names)] : entry.check(block).problems;
  }

  function defaultBlock(name: string, block: unknown): Record<string, unknown> {
    return byName.get(name)?.check(block).defaulted ?? {};
  }

  function resolve(formFactor: unknown): Resolution {
    // Validation's schema check guarantees an object; the registry may be asked before it.
    if (formFactor !== undefined && formFactor !== null && !isPlainObject(formFactor))
      return { ok: false, problems: [formFactorProblem(FORM_FACTOR_PATH, 'must be an object')] };
    const selection = selectFormFactor(formFactor ?? undefined, names);
    if (!selection.ok) return selection;
    const entry = byName.get(selection.name);
    // Unreachable: the selection only picks available names.
    if (entry === undefined)
      return { ok: false, problems: [unknownFormFactorProblem(selection.name, names)] };
    const { plugin, check } = entry;
    const { problems, defaulted } = check(selection.block);
    if (problems.length > 0) return { ok: false, problems };
    return {
      ok: true,
      formFactor: {
        plugin,
        name: plugin.name,
        hookName: plugin.hookName ?? plugin.name,
        block: defaulted,
        conditionTypes: plugin.conditionTypesFor?.(defaulted) ?? [...plugin.conditionTypes],
      },
    };
  }

  function allManagedKinds(): GroupVersionKind[] {
    const kinds = new Map<string, GroupVersionKind>();
    for (const { plugin } of byName.values()) {
      for (const { apiVersion, kind } of plugin.managedKinds)
        kinds.set(`${apiVersion} ${kind}`, { apiVersion, kind });
    }
    return [...kinds.values()];
  }

  return {
    ok: true,
    registry: {
      names: () => [...names],
      get: (name) => byName.get(name)?.plugin,
      validateBlock,
      defaultBlock,
      conditionTypes: (name) => [...(byName.get(name)?.plugin.conditionTypes ?? [])],
      resolve,
      allManagedKinds,
    },
  };
}
