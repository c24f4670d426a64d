#!/usr/bin/env node
// Reads a Parquet file quiver wrote with DuckDB and Polars and compares it with the CSV it came
// from, read by DuckDB as text and cast to the Parquet column types (an oracle quiver did not
// write): row counts, per-column hashes, null counts, distinct counts and numeric sums.
//
// With --extremes, filters at each column's extremes (col >= its max, col <= its min, bounds
// taken from the CSV) count the same rows in both: statistics that exclude a value would make
// DuckDB prune wrongly.
//
//   node check.mjs FILE.parquet SOURCE.csv [--delim C] [--meta] [--extremes]
// Prints one JSON line {ok, rows, duckdb_types, polars_types, problems[, meta]}; exits 1 on a
// mismatch. --meta adds DuckDB's parquet_metadata() rows of the first row group (statistics,
// exactness, encodings, bloom filter offsets) as `meta`.
import { DuckDBInstance } from '@duckdb/node-api';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const argv = process.argv.slice(2);
let delim = ',';
const di = argv.indexOf('--delim');
if (di >= 0) { delim = argv[di + 1]; argv.splice(di, 2); }
const mi = argv.indexOf('--meta');
const withMeta = mi >= 0;
if (withMeta) argv.splice(mi, 1);
const xi = argv.indexOf('--extremes');
const extremes = xi >= 0;
if (extremes) argv.splice(xi, 1);
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
  if (!extremes || /\[\]|STRUCT|MAP/.test(t) || String(a.nn) === '0') continue;
  for (const [op, fn] of [['>=', 'max'], ['<=', 'min']]) {
    const bound = `(SELECT ${fn}(CAST(${ident(c)} AS ${t})) FROM ${src})`;
    const [{ n: x }] = await rows(`SELECT count(*)::BIGINT AS n FROM read_parquet(${q(parquet)}) WHERE ${ident(c)} ${op} ${bound}`);
    const [{ n: y }] = await rows(`SELECT count(*)::BIGINT AS n FROM ${src} WHERE CAST(${ident(c)} AS ${t}) ${op} ${bound}`);
    if (x !== y) problems.push(`duckdb: column ${c}: ${x} rows ${op} its ${fn} in Parquet, ${y} in the CSV`);
  }
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

let meta;
if (withMeta) {
  meta = (await con.runAndReadAll(`SELECT path_in_schema, stats_min_value, stats_max_value, min_is_exact, max_is_exact,
    encodings, bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${q(parquet)}) WHERE row_group_id = 0
    ORDER BY column_id`)).getRowObjectsJson();
}
console.log(JSON.stringify({ ok: problems.length === 0, rows: Number(pqRows), duckdb_types: duckdbTypes,
  polars_types: polarsTypes, problems, meta }));
process.exit(problems.length === 0 ? 0 : 1);
