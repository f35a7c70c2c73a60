// The Greeter sample's adapter for the e2e suite: answers every HTTP request with the environment its
// process received, as JSON ({ "env": { NAME: value } }), so a test reads exactly what Scoby rendered.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8080);
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ path: request.url, env: process.env }));
});
server.listen(port, () => console.log(`greeter-env listening on ${port}`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
