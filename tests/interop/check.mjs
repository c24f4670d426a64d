#!/usr/bin/env node
// Reads a Parquet file quiver wrote with DuckDB and Polars and compares it with the CSV it came
// from, read by DuckDB as text and cast to the Parquet column types (an oracle quiver did not
// write): row counts, per-column hashes, null counts, distinct counts and numeric sums.
//
//   node check.mjs FILE.parquet SOURCE.csv [--delim C]
// Prints one JSON line {ok, rows, duckdb_types, polars_types, problems}; exits 1 on a mismatch.
import { DuckDBInstance } from '@duckdb/node-api';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const argv = process.argv.slice(2);
let delim = ',';
const di = argv.indexOf('--delim');
if (di >= 0) { delim = argv[di + 1]; argv.splice(di, 2); }
const [parquet, csv] = argv;
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const ident = (s) => `"${String(s).replaceAll('"', '""')}"`;
const problems = [];

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();

const desc = await rows(`DESCRIBE SELECT * FROM read_parquet(${q(parquet)})`);
const duckdbTypes = Object.fromEntries(desc.map((r) => [r.column_name, r.column_type]));
const src = `read_csv(${q(csv)}, delim=${q(delim)}, header=true, all_varchar=true, quote='"', escape='"')`;
const [{ n: pqRows }] = await rows(`SELECT count(*)::BIGINT AS n FROM read_parquet(${q(parquet)})`);
const [{ n: csvRows }] = await rows(`SELECT count(*)::BIGINT AS n FROM ${src}`);
if (pqRows !== csvRows) problems.push(`duckdb: ${pqRows} rows in the Parquet file, ${csvRows} in the CSV`);

const stats = {};
for (const { column_name: c, column_type: t } of desc) {
  const numeric = /INT|DOUBLE|FLOAT|DECIMAL/.test(t);
  const agg = (col) => `sum(hash(${col}))::VARCHAR AS h, count(${col})::BIGINT AS nn, count(DISTINCT ${col})::BIGINT AS nd` +
    (numeric ? `, sum(${col})::DOUBLE AS s` : '');
  const [a] = await rows(`SELECT ${agg(ident(c))} FROM read_parquet(${q(parquet)})`);
  const [b] = await rows(`SELECT ${agg(`CAST(${ident(c)} AS ${t})`)} FROM ${src}`);
  for (const k of Object.keys(a)) {
    // Float sums depend on summation order (DuckDB sums in parallel); the hashes are exact.
    if (k === 's' && Math.abs(a.s - b.s) <= 1e-9 * Math.max(1, Math.abs(b.s))) continue;
    if (String(a[k]) !== String(b[k])) problems.push(`duckdb: column ${c} (${t}): ${k} ${a[k]} in Parquet, ${b[k]} from the CSV`);
  }
  stats[c] = a;
}

const df = pl.readParquet(parquet);
const polarsTypes = Object.fromEntries(df.columns.map((c) => [c, String(df.getColumn(c).dtype)]));
if (BigInt(df.height) !== BigInt(pqRows)) problems.push(`polars: ${df.height} rows, duckdb ${pqRows}`);
if (df.columns.join(',') !== desc.map((r) => r.column_name).join(',')) problems.push(`polars: columns ${df.columns}`);
for (const c of df.columns) {
  const s = df.getColumn(c);
  const st = stats[c];
  if (!st) continue;
  const nulls = BigInt(df.height) - BigInt(st.nn);
  if (BigInt(s.nullCount()) !== nulls) problems.push(`polars: column ${c}: ${s.nullCount()} nulls, duckdb ${nulls}`);
  // Polars counts null as one more distinct value.
  const distinct = BigInt(st.nd) + (nulls > 0n ? 1n : 0n);
  if (BigInt(s.nUnique()) !== distinct) problems.push(`polars: column ${c}: ${s.nUnique()} distinct, duckdb ${distinct}`);
  if (st.s !== undefined && !/Decimal/.test(polarsTypes[c])) {
    const ps = Number(s.sum() ?? 0);
    const ds = Number(st.s ?? 0);
    if (Math.abs(ps - ds) > 1e-9 * Math.max(1, Math.abs(ds))) problems.push(`polars: column ${c}: sum ${ps}, duckdb ${ds}`);
  }
}

console.log(JSON.stringify({ ok: problems.length === 0, rows: Number(pqRows), duckdb_types: duckdbTypes,
  polars_types: polarsTypes, problems }));
process.exit(problems.length === 0 ? 0 : 1);
