/**
 * The form factors built into Scoby (docs/spec/children-and-status.md §2), in the order they are
 * listed to users. Beside the process, `npm run generate` reads them (scripts/generate-built-ins.ts):
 * their blocks are the registration schema's, their managed kinds the shipped ClusterRole's rows.
 */
import { createFormFactorRegistry, type FormFactorPlugin, type FormFactorRegistry } from '@scoby/formfactor';
import { deploymentFormFactor } from '@scoby/formfactor-deployment';
import { knativeServiceFormFactor } from '@scoby/formfactor-ksvc';

export const BUILT_IN_FORM_FACTORS: readonly FormFactorPlugin[] = [
  deploymentFormFactor as FormFactorPlugin,
  knativeServiceFormFactor as FormFactorPlugin,
];

/** The form factors of a process: the built-ins, then `plugins`. */
export function builtInFormFactors(plugins: readonly FormFactorPlugin[]): FormFactorRegistry {
  const created = createFormFactorRegistry({ builtIns: BUILT_IN_FORM_FACTORS, plugins });
  if (!created.ok) throw new Error(created.messages.join('; '));
  return created.registry;
}
