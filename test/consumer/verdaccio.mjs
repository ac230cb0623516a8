// Started by registry.mjs under Node 22 (Verdaccio needs it): Verdaccio with the given config on a
// free loopback port. Prints `listening <url>` once it accepts requests; SIGTERM ends it.
import { runServer } from 'verdaccio';

const app = await runServer(process.argv[2]);
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${server.address().port}/`);
});
