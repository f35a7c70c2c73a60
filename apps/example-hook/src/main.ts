/** `npm start -w @scoby/example-hook`: serves the example hook until SIGINT or SIGTERM. */
import { createExampleHook } from './index.ts';
import { optionsFromEnv } from './options.ts';

const reading = optionsFromEnv(process.env);
if (!reading.ok) {
  console.error(`example hook: ${reading.message}`);
  process.exit(2);
}
const hook = await createExampleHook({
  ...reading.options,
  logRequest: (line) => console.log(JSON.stringify(line)),
});
console.log(`example hook listening on ${hook.url}`);

const stop = (): void => {
  void hook.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
