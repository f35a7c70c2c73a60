import { startHookServer } from '@scoby/hooks-v1';
import { finalize, preReconcile } from './handlers.js';

const hook = await startHookServer({
  port: Number(process.env.PORT ?? 8081), // 8080 is the default of Scoby's own ops server
  host: process.env.HOST ?? '0.0.0.0',
  path: '/v1',
  preReconcile,
  finalize,
});
console.log(`hook listening on ${hook.url}`);
process.once('SIGTERM', () => void hook.close());
