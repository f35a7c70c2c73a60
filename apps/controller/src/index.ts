/** The controller as a library: run it in-process against any kubeconfig (the e2e suite does). */
export { builtInFormFactors } from './process/built-in-form-factors.ts';
export { startController, type ControllerOptions, type RunningController } from './process/manager.ts';
