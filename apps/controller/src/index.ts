/** The controller as a library: run it in-process against any kubeconfig (the e2e suite does). */
import { startProcess } from './process/manager.ts';
import type { ProcessOptions, RunningProcess } from './process/manager.ts';

export { builtInFormFactors } from './process/built-in-form-factors.ts';
export { startProcess, type ProcessOptions, type RunningProcess } from './process/manager.ts';

/** @deprecated Renamed startProcess; this alias is removed in the release after next. */
export const startController: (options: ProcessOptions) => RunningProcess = startProcess;
/** @deprecated Renamed ProcessOptions; this alias is removed in the release after next. */
export type ControllerOptions = ProcessOptions;
/** @deprecated Renamed RunningProcess; this alias is removed in the release after next. */
export type RunningController = RunningProcess;
