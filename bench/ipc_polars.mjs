#!/usr/bin/env node
// Polars (the pinned nodejs-polars of tests/interop) doing what bench/ipc.sh times quiver doing;
// each command prints one JSON line {engine, op, rows, seconds}, the seconds measured inside the
// process around the work alone.
//   node ipc_polars.mjs csv2ipc IN.csv OUT.arrow     (readCSV, then writeIPC: the Arrow file format)
//   node ipc_polars.mjs pq2ipc IN.parquet OUT.arrow  (readParquet, then writeIPC)
//   node ipc_polars.mjs ipcread IN.arrow             (scanIPC(...).collect: the file memory-mapped)
// INTEROP names the folder scripts/interop-setup.sh installed the packages in.
import { createRequire } from 'node:module';
import path from 'node:path';
const dir = process.env.INTEROP ?? 'build/release/interop';
const require = createRequire(path.resolve(dir, 'node_modules', 'x.js'));
const pl = require('nodejs-polars');

const [op, input, output] = process.argv.slice(2);
const t0 = performance.now();
let df;
if (op === 'csv2ipc') {
  df = pl.readCSV(input, { sep: ',' });
  df.writeIPC(output);
} else if (op === 'pq2ipc') {
  df = pl.readParquet(input);
  df.writeIPC(output);
} else if (op === 'ipcread') {
  df = pl.scanIPC(input).collectSync();
} else {
  console.log(JSON.stringify({ ok: false, error: `unknown op ${op}` }));
  process.exit(2);
}
const seconds = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ engine: 'polars', op, rows: df.height, columns: df.width, seconds: Number(seconds.toFixed(4)) }));
