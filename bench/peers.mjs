#!/usr/bin/env node
// DuckDB and Polars jobs of the benchmark page (bench/report.sh), run from the folder where
// scripts/interop-setup.sh installed the pinned packages of tests/interop. Each prints one JSON
// line; `seconds` is measured in the process around the work alone.
//   peers.mjs duckdb csv2pq|csvread IN.csv [OUT.parquet] [--delim C]
//   peers.mjs duckdb pqread|q1|q6 FILE.parquet
//   peers.mjs duckdb|polars json2pq|jsonread IN.jsonl [OUT.parquet]   (JSON Lines)
//   peers.mjs polars csv2pq|csvread IN.csv [OUT.parquet] [--delim C]
//   peers.mjs polars pqread FILE.parquet
//   peers.mjs versions
// Every job runs at 2 threads (--threads N to change DuckDB's; Polars uses its own pool).
import { DuckDBInstance } from '@duckdb/node-api';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);

const argv = process.argv.slice(2);
function opt(name, dflt) {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
}
const threads = Number(opt('--threads', '2'));
const delim = opt('--delim', ',');
const now = () => Number(process.hrtime.bigint()) / 1e9;
const out = (o) => console.log(JSON.stringify(o));
const lit = (s) => `'${String(s).replaceAll("'", "''")}'`;

const Q6 = (f) => `SELECT sum(l_extendedprice * l_discount)::DOUBLE FROM read_parquet(${lit(f)})
  WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
    AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`;
const Q1 = (f) => `SELECT l_returnflag, l_linestatus, sum(l_quantity)::DOUBLE, sum(l_extendedprice)::DOUBLE,
    sum(l_extendedprice * (1 - l_discount))::DOUBLE, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax))::DOUBLE,
    avg(l_quantity)::DOUBLE, avg(l_extendedprice)::DOUBLE, avg(l_discount)::DOUBLE, count(*)::BIGINT
  FROM read_parquet(${lit(f)}) WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL 90 DAY
  GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`;

async function main() {
  const [engine, job, a, b] = argv;
  if (engine === 'versions') {
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const v = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
    const pl = require('nodejs-polars');
    out({ duckdb: String(v), polars: require('nodejs-polars/package.json').version ?? String(pl.version ?? ''), node: process.version });
    return;
  }
  if (engine === 'duckdb') {
    const con = await (await DuckDBInstance.create(':memory:', { threads: String(threads) })).connect();
    const t0 = now();
    if (job === 'csv2pq') {
      await con.run(`COPY (SELECT * FROM read_csv(${lit(a)}, header=true, delim=${lit(delim)})) TO ${lit(b)} (FORMAT parquet, COMPRESSION snappy)`);
      return out({ engine, op: job, seconds: now() - t0 });
    }
    if (job === 'json2pq') {
      await con.run(`COPY (SELECT * FROM read_json(${lit(a)}, format='newline_delimited')) TO ${lit(b)} (FORMAT parquet, COMPRESSION snappy)`);
      return out({ engine, op: job, seconds: now() - t0 });
    }
    if (job === 'jsonread') {
      await con.run(`CREATE TABLE t AS SELECT * FROM read_json(${lit(a)}, format='newline_delimited')`);
      const secs = now() - t0;
      const rows = Number((await con.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
      return out({ engine, op: job, rows, seconds: secs });
    }
    if (job === 'csvread' || job === 'pqread') {
      const src = job === 'pqread' ? `read_parquet(${lit(a)})` : `read_csv(${lit(a)}, header=true, delim=${lit(delim)})`;
      await con.run(`CREATE TABLE t AS SELECT * FROM ${src}`);
      const secs = now() - t0;
      const rows = Number((await con.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0]);
      return out({ engine, op: job, rows, seconds: secs });
    }
    if (job === 'q6') {
      const r = await con.runAndReadAll(Q6(a));
      return out({ engine, op: job, revenue: Number(r.getRows()[0][0]), seconds: now() - t0 });
    }
    if (job === 'q1') {
      const r = await con.runAndReadAll(Q1(a));
      const secs = now() - t0;
      return out({ engine, op: job, groups: r.getRows().map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v))), seconds: secs });
    }
  }
  if (engine === 'polars') {
    const pl = require('nodejs-polars');
    const t0 = now();
    if (job === 'csv2pq') {
      const df = pl.readCSV(a, { sep: delim, hasHeader: true });
      df.writeParquet(b, { compression: 'snappy' });
      return out({ engine, op: job, rows: df.height, seconds: now() - t0 });
    }
    if (job === 'json2pq' || job === 'jsonread') {
      // readJSON of a path fails in nodejs-polars 0.25 ("method is not a function"); scanJson reads it.
      const df = pl.scanJson(a).collectSync();
      if (job === 'json2pq') df.writeParquet(b, { compression: 'snappy' });
      return out({ engine, op: job, rows: df.height, columns: df.width, seconds: now() - t0 });
    }
    if (job === 'csvread') {
      const df = pl.readCSV(a, { sep: delim, hasHeader: true });
      return out({ engine, op: job, rows: df.height, columns: df.width, seconds: now() - t0 });
    }
    if (job === 'pqread') {
      const df = pl.readParquet(a);
      return out({ engine, op: job, rows: df.height, columns: df.width, seconds: now() - t0 });
    }
  }
  console.error('usage: see the head of peers.mjs');
  process.exit(2);
}
main().catch((e) => { console.error(e.message ?? e); process.exit(1); });
