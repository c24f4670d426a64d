#!/usr/bin/env node
// Reads a Parquet file with DuckDB and compares its column types and every value, exactly, with
// a JSON Lines file: the first line {"types": {column: DuckDB type}}, then one object per row,
// rows matched by the integer column `id`. Strings compare as written (so "00501" is not 501;
// dates and timestamps as DuckDB prints them), numbers as numbers, null as null.
//
//   node check_table.mjs FILE.parquet EXPECTED.jsonl
// Prints one JSON line {ok, rows, types, problems}; exits 1 on a mismatch.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const [parquet, jsonl] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const lines = readFileSync(jsonl, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
const wantTypes = lines[0].types;
const want = new Map(lines.slice(1).map((r) => [String(r.id), r]));
const problems = [];

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const desc = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(parquet)})`)).getRowObjectsJson();
const types = Object.fromEntries(desc.map((r) => [r.column_name, r.column_type]));
for (const [c, t] of Object.entries(wantTypes)) {
  if (types[c] !== t) problems.push(`column ${c}: type ${types[c]}, expected ${t}`);
}
const rows = (await con.runAndReadAll(`SELECT * FROM read_parquet(${q(parquet)})`)).getRowObjectsJson();
if (rows.length !== want.size) problems.push(`${rows.length} rows, expected ${want.size}`);
let shown = 0;
for (const r of rows) {
  const w = want.get(String(r.id));
  if (!w) { problems.push(`unexpected id ${r.id}`); continue; }
  for (const c of Object.keys(w)) {
    const a = r[c], b = w[c];
    const same = b === null ? a === null : typeof b === 'number' ? a !== null && Number(a) === b : a === b;
    if (!same && shown++ < 5) problems.push(`id ${r.id}, column ${c}: ${JSON.stringify(a)}, expected ${JSON.stringify(b)}`);
  }
}
if (shown > 5) problems.push(`${shown - 5} more differing values`);
console.log(JSON.stringify({ ok: problems.length === 0, rows: rows.length, types, problems }));
process.exit(problems.length === 0 ? 0 : 1);
