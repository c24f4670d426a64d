#!/usr/bin/env node
// Writes a CSV file to Parquet with another engine's own writer, for quiver to read back:
//   node write.mjs duckdb|polars SOURCE.csv OUT.parquet [--compression C]
// DuckDB: COPY ... TO (FORMAT parquet) from read_csv with its own type detection; Polars:
// readCSV then writeParquet. Prints one JSON line {ok, engine, rows}.
import { DuckDBInstance } from '@duckdb/node-api';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const argv = process.argv.slice(2);
let compression = 'snappy';
const ci = argv.indexOf('--compression');
if (ci >= 0) { compression = argv[ci + 1]; argv.splice(ci, 2); }
const [engine, csv, out] = argv;
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;

if (engine === 'duckdb') {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`COPY (SELECT * FROM read_csv(${q(csv)}, header=true)) TO ${q(out)} (FORMAT parquet, COMPRESSION ${q(compression)})`);
  const [{ n }] = (await con.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM read_parquet(${q(out)})`)).getRowObjectsJS();
  console.log(JSON.stringify({ ok: true, engine, rows: Number(n) }));
} else if (engine === 'polars') {
  const df = pl.readCSV(csv, { tryParseDates: true });
  df.writeParquet(out, { compression });
  console.log(JSON.stringify({ ok: true, engine, rows: df.height }));
} else {
  console.log(JSON.stringify({ ok: false, error: `unknown engine ${engine}` }));
  process.exit(2);
}
