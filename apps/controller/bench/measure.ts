/**
 * The figures of one timed stretch: wall time, and CPU and peak RSS of the bench process itself, the
 * API server process and, in a controller run, the controller process.
 */
import type { ProcessUsage } from './child-process.ts';
import { sampleRss } from './rss.ts';

export interface UsageSource {
  usage(): Promise<ProcessUsage>;
}

export interface ProcessFigures {
  /** CPU time (user + system) during the stretch. */
  cpuSeconds: number;
  /** Peak RSS over the process's life up to the end of the stretch. */
  peakRssMiB: number;
}

export interface Measurement {
  seconds: number;
  /** The bench process: the harness, and in a floor run the floor loop. */
  bench: ProcessFigures;
  server: ProcessFigures;
  /** Present in a controller run. */
  controller?: ProcessFigures;
}

export async function startMeasurement(processes: {
  server: UsageSource;
  controller?: UsageSource;
}): Promise<() => Promise<Measurement>> {
  const serverBefore = await processes.server.usage();
  const controllerBefore = await processes.controller?.usage();
  const cpuBefore = process.cpuUsage();
  const rss = sampleRss();
  const started = performance.now();
  return async () => {
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const bench = { cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMiB: rss.stop() };
    const server = figures(serverBefore, await processes.server.usage());
    const controllerAfter = await processes.controller?.usage();
    return {
      seconds,
      bench,
      server,
      ...(controllerBefore && controllerAfter
        ? { controller: figures(controllerBefore, controllerAfter) }
        : {}),
    };
  };
}

function figures(before: ProcessUsage, after: ProcessUsage): ProcessFigures {
  return { cpuSeconds: after.cpuSeconds - before.cpuSeconds, peakRssMiB: after.maxRssKiB / 1024 };
}
