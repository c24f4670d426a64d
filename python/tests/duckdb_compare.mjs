#!/usr/bin/env node
// Compares a Parquet file or dataset with a CSV file as DuckDB reads both, row for row:
//   node duckdb_compare.mjs PARQUET_GLOB CSV_PATH
// The CSV is read as text and cast to the types DuckDB reads from the Parquet files (with Hive
// partitioning), and EXCEPT ALL both ways counts the rows only one side has. Prints one JSON
// line {parquet_rows, csv_rows, only_parquet, only_csv, types}.
import { DuckDBInstance } from '@duckdb/node-api';

const [glob, csv] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const ident = (s) => `"${String(s).replaceAll('"', '""')}"`;
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();

const pq = `read_parquet(${q(glob)}, hive_partitioning=true)`;
const src = `read_csv(${q(csv)}, header=true, all_varchar=true, quote='"', escape='"', delim=',')`;
const desc = await rows(`DESCRIBE SELECT * FROM ${pq}`);
const a = desc.map((d) => ident(d.column_name)).join(', ');
const b = desc.map((d) => `CAST(${ident(d.column_name)} AS ${d.column_type}) AS ${ident(d.column_name)}`).join(', ');
const [r] = await rows(`SELECT
  (SELECT count(*) FROM ${pq})::BIGINT AS parquet_rows,
  (SELECT count(*) FROM ${src})::BIGINT AS csv_rows,
  (SELECT count(*) FROM (SELECT ${a} FROM ${pq} EXCEPT ALL SELECT ${b} FROM ${src}))::BIGINT AS only_parquet,
  (SELECT count(*) FROM (SELECT ${b} FROM ${src} EXCEPT ALL SELECT ${a} FROM ${pq}))::BIGINT AS only_csv`);
const out = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
out.types = Object.fromEntries(desc.map((d) => [d.column_name, d.column_type]));
console.log(JSON.stringify(out));
