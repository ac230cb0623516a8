// `express4` is Express 4 installed under an alias for the tests; its API is typed with the
// Express 5 types, which cover everything the tests use.
declare module 'express4' {
  import express from 'express';
  export default express;
}
