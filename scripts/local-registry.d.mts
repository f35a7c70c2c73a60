/** Types of local-registry.mjs, for the TypeScript tests that start the registry. */
export interface StartedRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The npm user config that sends `@scoby` here with the publisher's token. */
  userconfig: string;
  /** The environment npm runs in: this process's, without npm's script variables, with `userconfig`. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}
export function userEnvironment(userconfig: string): NodeJS.ProcessEnv;
export function startLocalRegistry(folder: string): Promise<StartedRegistry>;
