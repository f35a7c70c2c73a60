/**
 * The node container as the fault scenarios act on it, from their own process through the Docker
 * engine: a component killed by the process id its supervisor wrote (/run/scoby-node/<name>.pid),
 * the node's own lines (scoby-node.log), and `docker restart` of the whole container.
 */
import { inject } from 'vitest';
import { getContainerRuntimeClient } from 'testcontainers';

const RUN_DIR = '/run/scoby-node';
const NODE_LOG = '/var/log/scoby-node/scoby-node.log';
const ADMIN_KUBECONFIG = '/etc/kubernetes/super-admin.conf';

export interface NodeContainer {
  /** Runs a command in the node; resolves with its output, rejects when it fails. */
  exec(command: string[]): Promise<string>;
  /** Sends `signal` to a component; resolves with the process id it had. */
  kill(component: string, signal?: 'KILL' | 'TERM'): Promise<number>;
  /**
   * Waits until the component runs again as another process than `killedPid`; resolves with the
   * time it was first seen running.
   */
  restarted(component: string, killedPid: number, withinMs?: number): Promise<number>;
  /** The node's own lines (those it prints as `scoby-node: …`), from its start on, restarts included. */
  lines(): Promise<string[]>;
  /** `docker restart` (SIGTERM, then SIGKILL after `graceSeconds`); resolves once the container runs. */
  restart(graceSeconds: number): Promise<void>;
  /** Waits until the API server in the node answers /readyz. */
  apiServerReady(withinMs: number): Promise<void>;
}

/** The suite's node (E2E_CLUSTER=node). */
export async function suiteNode(): Promise<NodeContainer> {
  const id = inject('e2e').nodeContainerId;
  if (id === undefined) throw new Error('this run has no node container (E2E_CLUSTER=node)');
  const client = await getContainerRuntimeClient();
  const container = client.container.getById(id);
  const exec = async (command: string[]): Promise<string> => {
    const result = await client.container.exec(container, command);
    if (result.exitCode !== 0)
      throw new Error(`in the node: ${command.join(' ')}: exit ${result.exitCode}: ${result.output.trim()}`);
    return result.stdout;
  };
  const pidOf = async (component: string): Promise<number | undefined> => {
    const answer = await exec([
      'sh',
      '-c',
      `pid=$(cat ${RUN_DIR}/${component}.pid 2>/dev/null) && kill -0 "$pid" 2>/dev/null && echo "$pid" || true`,
    ]);
    return answer.trim() === '' ? undefined : Number(answer);
  };
  const until = async (what: string, withinMs: number, probe: () => Promise<boolean>): Promise<void> => {
    const deadline = Date.now() + withinMs;
    let lastError: unknown;
    for (;;) {
      try {
        if (await probe()) return;
      } catch (error) {
        lastError = error;
      }
      if (Date.now() > deadline)
        throw new Error(`${what} within ${withinMs / 1000} s${lastError ? `: ${String(lastError)}` : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  return {
    exec,
    async kill(component, signal = 'KILL') {
      const pid = await pidOf(component);
      if (pid === undefined) throw new Error(`${component} does not run in the node`);
      await exec(['kill', `-${signal}`, String(pid)]);
      return pid;
    },
    async restarted(component, killedPid, withinMs = 120_000) {
      let seenAt = 0;
      await until(`${component} running again`, withinMs, async () => {
        const pid = await pidOf(component);
        seenAt = Date.now();
        return pid !== undefined && pid !== killedPid;
      });
      return seenAt;
    },
    async lines() {
      return (await exec(['cat', NODE_LOG])).split('\n').filter((line) => line !== '');
    },
    async restart(graceSeconds) {
      await client.container.restart(container, { timeout: graceSeconds * 1000 });
    },
    async apiServerReady(withinMs) {
      await until('the API server ready', withinMs, async () => {
        await exec(['kubectl', '--kubeconfig', ADMIN_KUBECONFIG, 'get', '--raw', '/readyz']);
        return true;
      });
    },
  };
}
