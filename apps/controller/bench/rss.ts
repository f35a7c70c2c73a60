/** Peak resident set size of this process over a stretch of time, sampled. */
export interface RssSampler {
  /** Stops sampling; the highest RSS seen, in MiB. */
  stop(): number;
}

const MIB = 1024 * 1024;

export function sampleRss(intervalMs = 200): RssSampler {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss()) / MIB;
    },
  };
}
