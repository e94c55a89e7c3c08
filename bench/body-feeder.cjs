'use strict';
// autocannon's setupRequest for bodies that change per request. autocannon runs its load in a worker thread and can
// only hand it a file path, not a function (functions cannot be cloned into a worker), so the main thread writes the
// JSON bodies (one JSON text each) to the file named by NUDGE_BENCH_BODIES and this module sends them in order.
const { readFileSync } = require('node:fs');

const file = process.env.NUDGE_BENCH_BODIES;
if (!file) throw new Error('NUDGE_BENCH_BODIES is not set: the bench writes it before starting autocannon');
const bodies = JSON.parse(readFileSync(file, 'utf8'));
if (!Array.isArray(bodies) || bodies.length === 0) throw new Error(`${file} holds no bodies`);
let next = 0;

module.exports = function setupRequest(request) {
  const body = bodies[next % bodies.length];
  next += 1;
  return { ...request, body };
};
