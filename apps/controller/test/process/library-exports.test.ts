/**
 * The library's exports (src/index.ts): the process is startProcess with ProcessOptions, and the
 * names it had before stay for one release as deprecated aliases, for code written against them.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as library from '../../src/index.ts';
import type {
  ControllerOptions,
  ProcessOptions,
  RunningController,
  RunningProcess,
} from '../../src/index.ts';

describe('@scoby/controller', () => {
  it('exports startProcess, and startController as its alias', () => {
    expect(Object.keys(library).sort()).toEqual(['builtInFormFactors', 'startController', 'startProcess']);
    expect(library.startController).toBe(library.startProcess);
  });

  it('keeps ControllerOptions and RunningController as the same types as ProcessOptions and RunningProcess', () => {
    expectTypeOf<ControllerOptions>().toEqualTypeOf<ProcessOptions>();
    expectTypeOf<RunningController>().toEqualTypeOf<RunningProcess>();
  });
});
