// A hook as a user writes it in their own project: plain JavaScript on the published @scoby/hooks-v1
// SDK. It prints its URL, then one line per request: the form factor and the object it was asked about.
import process from 'node:process';
import { startHookServer } from '@scoby/hooks-v1';

const hook = await startHookServer({
  preReconcile: (request) => {
    process.stdout.write(
      `${JSON.stringify({ formFactor: request.formFactor, object: request.object.metadata.name })}\n`,
    );
    const { pod } = request.children;
    const annotations = { ...pod.metadata.annotations, 'example.com/hooked': 'true' };
    return { children: { ...request.children, pod: { ...pod, metadata: { ...pod.metadata, annotations } } } };
  },
});
process.stdout.write(`${hook.url}\n`);
process.once('SIGTERM', () => hook.close().then(() => process.exit(0)));
