#!/usr/bin/env node
// Compares a Parquet file quiver converted from JSON Lines with DuckDB's own read_json of the
// same JSON file: the same rows in the same order, every value equal (rows as DuckDB renders
// them to JSON; nested structs and lists included). Dates and timestamps DuckDB detects in
// strings compare by their text, as quiver keeps them strings.
//
//   node check_json.mjs FILE.jsonl FILE.parquet
// Prints one JSON line {ok, rows, problems}; exits 1 on a difference.
import { DuckDBInstance } from '@duckdb/node-api';

const [json, parquet] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const read = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
const want = await read(`SELECT * FROM read_json(${q(json)}, format = 'newline_delimited', sample_size = -1)`);
const got = await read(`SELECT * FROM read_parquet(${q(parquet)})`);
const problems = [];
if (want.length !== got.length) problems.push(`${got.length} rows, DuckDB's read_json has ${want.length}`);
// Numbers compare as numbers (DuckDB renders BIGINT as text in one reader and not the other).
const norm = (v) => {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map(norm);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
  if (typeof v === 'string' && /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(v)) return Number(v);
  return v;
};
let shown = 0;
for (let i = 0; i < Math.min(want.length, got.length); ++i) {
  const a = JSON.stringify(norm(got[i])), b = JSON.stringify(norm(want[i]));
  if (a !== b && shown++ < 5) problems.push(`row ${i}: quiver ${a}\n  duckdb ${b}`);
}
if (shown > 5) problems.push(`${shown - 5} more differing rows`);
console.log(JSON.stringify({ ok: problems.length === 0, rows: got.length, problems }));
process.exit(problems.length === 0 ? 0 : 1);
