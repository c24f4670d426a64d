#!/usr/bin/env node
// Reads a Parquet file quiver wrote with DuckDB and Polars and compares every value of every
// row (nested lists, structs and maps included) with a JSON Lines file of the same rows, written
// by quiver's JSON Lines writer from the arrays it gave the Parquet writer. Rows are matched
// by the integer column KEY (both engines may scan in parallel).
//
//   node check_values.mjs FILE.parquet EXPECTED.jsonl --key id
// Prints one JSON line {ok, rows, duckdb_types, polars_types, problems}; exits 1 on a mismatch.
// Values compare as text after JSON parsing (DuckDB gives BIGINT as a string, a map as a list
// of {key, value}, as quiver's writer does), so integers must stay below 2^53.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const argv = process.argv.slice(2);
let key = 'id';
const ki = argv.indexOf('--key');
if (ki >= 0) { key = argv[ki + 1]; argv.splice(ki, 2); }
const [parquet, jsonl] = argv;
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const ident = (s) => `"${String(s).replaceAll('"', '""')}"`;
const problems = [];

// Canonical text: numbers and numeric strings alike, object keys in order.
const norm = (v) => {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(norm).join(',')}]`;
  if (typeof v === 'object') return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${norm(v[k])}`).join(',')}}`;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return String(Number(v));
  return JSON.stringify(v);
};
const byKey = (rows) => new Map(rows.map((r) => [String(r[key]), r]));
const expected = readFileSync(jsonl, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
const want = byKey(expected);

const compare = (engine, rows) => {
  if (rows.length !== expected.length) problems.push(`${engine}: ${rows.length} rows, expected ${expected.length}`);
  let shown = 0;
  for (const [k, r] of byKey(rows)) {
    const w = want.get(k);
    if (!w) { problems.push(`${engine}: unexpected ${key} ${k}`); continue; }
    for (const c of Object.keys(w)) {
      const a = norm(r[c]), b = norm(w[c]);
      if (a !== b && shown++ < 5) problems.push(`${engine}: ${key} ${k}, column ${c}: ${a}, expected ${b}`);
    }
  }
  if (shown > 5) problems.push(`${engine}: ${shown - 5} more differing values`);
};

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const desc = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(parquet)})`)).getRowObjectsJson();
const duckdbTypes = Object.fromEntries(desc.map((r) => [r.column_name, r.column_type]));
const drows = (await con.runAndReadAll(`SELECT * FROM read_parquet(${q(parquet)}) ORDER BY ${ident(key)}`)).getRowObjectsJson();
compare('duckdb', drows);

const df = pl.readParquet(parquet);
const polarsTypes = Object.fromEntries(df.columns.map((c) => [c, String(df.getColumn(c).dtype)]));
const prows = String(df.writeJSON({ format: 'lines' })).split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
compare('polars', prows);

console.log(JSON.stringify({ ok: problems.length === 0, rows: drows.length, duckdb_types: duckdbTypes,
  polars_types: polarsTypes, problems }));
process.exit(problems.length === 0 ? 0 : 1);
