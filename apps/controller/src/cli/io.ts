/** What a command may touch of its process, injected so commands run in tests without one. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Relative file arguments and plugin paths are taken from here. */
  cwd: string;
  /** Resolves with the first termination signal (SIGTERM or SIGINT) received from now on. */
  terminationSignal(): Promise<string>;
  /** Standard output is a terminal (logs default to the console format there). */
  stdoutIsTerminal?: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTerminal: process.stdout.isTTY === true,
    terminationSignal: () =>
      new Promise((resolve) => {
        const signals = ['SIGTERM', 'SIGINT'] as const;
        const onSignal = (signal: string) => {
          for (const name of signals) process.off(name, onSignal);
          resolve(signal);
        };
        for (const name of signals) process.once(name, onSignal);
      }),
  };
}
