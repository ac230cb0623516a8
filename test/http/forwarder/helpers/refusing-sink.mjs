// The reference for the hostile-sender test: an HTTP server that reads every request body, drops
// it and answers 413, as the forwarder does for a hostile body, doing nothing else. Prints its URL.
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.statusCode = 413;
    response.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
