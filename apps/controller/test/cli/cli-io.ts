/** A CliIo that records what a command writes, for running commands in-process. */
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/cli/io.ts';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface RecordingIo {
  io: CliIo;
  stdout(): string;
  stderr(): string;
}

export function recordingIo(env: Record<string, string> = {}, cwd = FIXTURES): RecordingIo {
  let stdout = '';
  let stderr = '';
  return {
    io: {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      env,
      cwd,
      terminationSignal: () => new Promise<string>(() => undefined),
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}
