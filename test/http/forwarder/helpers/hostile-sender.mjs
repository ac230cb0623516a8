// A hostile OTLP sender in a process of its own (as it would be): POSTs, one after the other, 8 MB
// of empty ResourceSpans and a span of 200,000 attributes to the URL given, prints each answer's
// status on a line, and stops when its stdin closes.
const url = process.argv[2];
const empty = Buffer.alloc(8 * 1024 * 1024);
for (let i = 0; i < empty.length; i += 2) empty[i] = 0x0a;
const varint = (value) => {
  const bytes = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
};
const field = (id, payload) => Buffer.concat([varint(id * 8 + 2), varint(payload.length), payload]);
const attribute = field(9, field(1, Buffer.from('k')));
const attributes = field(
  1,
  field(2, field(2, Buffer.concat(Array.from({ length: 200_000 }, () => attribute)))),
);
const bodies = [empty, attributes];

let stopping = false;
process.stdin.on('end', () => {
  stopping = true;
});
process.stdin.resume();
for (let i = 0; !stopping; i += 1) {
  // A broken connection is printed as one too (the forwarder should answer, not hang up).
  const status = await fetch(`${url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf' },
    body: bodies[i % 2],
  }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    (error) => `error ${error.cause?.code ?? error.message}`,
  );
  process.stdout.write(`${status}\n`);
}
