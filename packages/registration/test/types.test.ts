import { describe, expectTypeOf, it } from 'vitest';
import type { Condition } from '@scoby/kube-objects';
import type {
  CRDRegistration,
  CRDRegistrationStatus,
  DeploymentFormFactor,
  FormFactorBlock,
  HookSpec,
  KnativeServiceFormFactor,
} from '../src/types.ts';

// These assertions are checked by `tsc` (the typecheck target); at run time they are no-ops.
describe('generated types keep the contract other packages compile against', () => {
  it('hook.version is int-or-string', () => {
    expectTypeOf<HookSpec['version']>().toEqualTypeOf<string | number>();
  });

  it('form-factor blocks are nullable and plugin keys are open', () => {
    expectTypeOf<FormFactorBlock['deployment']>().toEqualTypeOf<DeploymentFormFactor | null | undefined>();
    expectTypeOf<FormFactorBlock['knativeService']>().toEqualTypeOf<
      KnativeServiceFormFactor | null | undefined
    >();
    expectTypeOf<FormFactorBlock['myPlugin']>().toEqualTypeOf<unknown>();
  });

  it('status conditions are Scoby conditions', () => {
    expectTypeOf<NonNullable<CRDRegistrationStatus['conditions']>[number]>().toEqualTypeOf<Condition>();
    expectTypeOf<CRDRegistration['spec']['crd']>().toEqualTypeOf<string>();
  });
});
