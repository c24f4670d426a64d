#!/usr/bin/env node
// Arrow IPC between quiver and Polars (pinned nodejs-polars):
//   node ipc.mjs check FILE.arrow|FILE.arrows REF.parquet
//     Polars reads the IPC file or stream and the Parquet file of the same rows; prints
//     {ok, rows, columns}, ok when the two frames are equal (values and types).
//   node ipc.mjs write REF.parquet OUT.arrow|OUT.arrows [uncompressed|lz4|zstd]
//     Polars writes the Parquet file's rows as an IPC file or stream, for quiver to read.
// The files are passed as bytes: this binding's path form of readIPC does not read files.
import { createRequire } from 'node:module';
import fs from 'node:fs';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const [cmd, a, b, compression = 'uncompressed'] = process.argv.slice(2);
const isStream = (f) => f.endsWith('.arrows');
if (cmd === 'check') {
  const bytes = fs.readFileSync(a);
  const ipc = isStream(a) ? pl.readIPCStream(bytes) : pl.readIPC(bytes);
  const ref = pl.readParquet(b);
  const ok = ipc.frameEqual(ref);
  const out = { ok, rows: ipc.height, columns: ipc.width };
  if (!ok) {
    out.ipc = String(ipc.head(3));
    out.parquet = String(ref.head(3));
    out.ipc_types = ipc.dtypes.map(String);
    out.parquet_types = ref.dtypes.map(String);
  }
  console.log(JSON.stringify(out));
  process.exit(ok ? 0 : 1);
} else if (cmd === 'write') {
  const df = pl.readParquet(a);
  if (isStream(b)) df.writeIPCStream(b, { compression });
  else df.writeIPC(b, { compression });
  console.log(JSON.stringify({ ok: true, rows: df.height }));
} else {
  console.log(JSON.stringify({ ok: false, error: `unknown command ${cmd}` }));
  process.exit(2);
}
