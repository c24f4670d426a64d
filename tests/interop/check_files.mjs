#!/usr/bin/env node
// Reads every Parquet file in a folder with DuckDB, every value of every column (a hash of
// each), and names each file DuckDB rejects (invalid UTF-8, inconsistent metadata, ...). Files
// whose name contains "corrupt" were written invalid on purpose and are skipped.
//
//   node check_files.mjs DIR
// Prints one line per rejected file and a JSON summary {ok, files, skipped, rejected}; exits 1
// when DuckDB rejects any.
import { DuckDBInstance } from '@duckdb/node-api';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
let names = [];
try {
  names = readdirSync(dir).filter((n) => n.endsWith('.parquet')).sort();
} catch {
  // No test kept a file.
}
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rejected = [];
let skipped = 0;
for (const name of names) {
  if (name.includes('corrupt')) {
    skipped++;
    continue;
  }
  try {
    await con.runAndReadAll(`SELECT count(*), sum(hash(COLUMNS(*)))::VARCHAR FROM read_parquet(${q(join(dir, name))})`);
  } catch (e) {
    const msg = String(e.message ?? e).split('\n')[0];
    rejected.push(`${name}: ${msg}`);
    console.log(`DuckDB rejects ${name}: ${msg}`);
  }
}
console.log(JSON.stringify({ ok: rejected.length === 0, files: names.length - skipped, skipped, rejected: rejected.length }));
process.exit(rejected.length === 0 ? 0 : 1);
