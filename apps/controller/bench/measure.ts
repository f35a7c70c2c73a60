/** The figures of one timed stretch: wall time, CPU of this process and of the API server, peak RSS. */
import type { ApiServerProcess } from './api-server-client.ts';
import { sampleRss } from './rss.ts';

export interface Measurement {
  seconds: number;
  /** CPU time (user + system) of this process during the stretch. */
  cpuSeconds: number;
  serverCpuSeconds: number;
  /** RSS of this process when the stretch began (runtime, tsx, the bench's own instance cache). */
  startRssMiB: number;
  peakRssMiB: number;
  serverPeakRssMiB: number;
}

export async function startMeasurement(server: ApiServerProcess): Promise<() => Promise<Measurement>> {
  const serverBefore = await server.usage();
  const cpuBefore = process.cpuUsage();
  const startRssMiB = process.memoryUsage.rss() / 1024 / 1024;
  const rss = sampleRss();
  const started = performance.now();
  return async () => {
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peakRssMiB = rss.stop();
    const serverAfter = await server.usage();
    return {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      serverCpuSeconds: serverAfter.cpuSeconds - serverBefore.cpuSeconds,
      startRssMiB,
      peakRssMiB,
      serverPeakRssMiB: serverAfter.maxRssKiB / 1024,
    };
  };
}
