#!/usr/bin/env node
// Arrow IPC between quiver and the apache-arrow npm package (pinned), an implementation that
// shares no code with quiver or Polars. LZ4_FRAME bodies go through lz4js and ZSTD bodies are
// read through fzstd (apache-arrow takes its codecs from the caller).
//
//   node arrow_js.mjs check FILE EXPECTED.jsonl
//     apache-arrow reads FILE (the IPC file or stream format, told by its first bytes) and
//     compares every value, in order, with quiver's JSON Lines of the same rows, each value put
//     in quiver's text form from apache-arrow's buffers (dates, times and timestamps in their
//     unit, decimals with their scale, binary as hex, maps as [{key, value}], unions as their
//     active member's value).
//     Prints {ok, rows, batches, dictionaries, types: {column: apache-arrow type}, problems};
//     exits 1 on a mismatch. Integers compare exactly at any size.
//   node arrow_js.mjs write IN OUT file|stream [none|lz4] [--batch-rows N] [--dictionary a,b] [--replace-dictionaries]
//                     [--sparse-unions]
//     apache-arrow reads IN and writes its rows to OUT: in batches of at most N rows, the named
//     string columns dictionary-encoded (a dictionary that grows batch by batch is written as
//     delta dictionaries, or, with --replace-dictionaries and the stream format, each batch
//     gets a new dictionary), bodies LZ4_FRAME-compressed with lz4; with --sparse-unions, top-level
//     union columns as sparse unions (each member as long as the column, null where another member
//     is chosen). Prints {ok, rows, batches}.
import * as arrow from 'apache-arrow';
import { createRequire } from 'node:module';
import fs from 'node:fs';
const require = createRequire(import.meta.url);
const lz4 = require('lz4js');
const fzstd = require('fzstd');

arrow.compressionRegistry.set(arrow.CompressionType.LZ4_FRAME, {
  encode: (b) => Uint8Array.from(lz4.compress(b)),
  decode: (b) => Uint8Array.from(lz4.decompress(b)),
});
// Copied: fzstd may return a view at an offset that apache-arrow cannot put 8-byte arrays on.
arrow.compressionRegistry.set(arrow.CompressionType.ZSTD, { decode: (b) => fzstd.decompress(b).slice() });

const argv = process.argv.slice(2);
const flag = (name) => {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
};
const boolFlag = (name) => {
  const i = argv.indexOf(name);
  if (i >= 0) argv.splice(i, 1);
  return i >= 0;
};
const fail = (error) => {
  console.log(JSON.stringify({ ok: false, error: String(error) }));
  process.exit(2);
};

const readTable = (path) => arrow.tableFromIPC(fs.readFileSync(path));

// ---- values in quiver's text forms (columnar/value_text.h) ----
const pad = (n, w) => String(n).padStart(w, '0');
const floorDiv = (a, b) => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };
const dateText = (days) => {
  const d = new Date(Number(days) * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
};
const unitDigits = { [arrow.TimeUnit.SECOND]: 0, [arrow.TimeUnit.MILLISECOND]: 3, [arrow.TimeUnit.MICROSECOND]: 6, [arrow.TimeUnit.NANOSECOND]: 9 };
// HH:MM:SS, then the fraction in the unit's digits when it is not zero.
const timeText = (v, unit) => {
  const digits = unitDigits[unit];
  const per = 10n ** BigInt(digits);
  const secs = floorDiv(v, per), frac = v - secs * per;
  let s = `${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}`;
  if (frac !== 0n) s += `.${pad(frac, digits)}`;
  return s;
};
const timestampText = (v, unit, tz) => {
  const per = 10n ** BigInt(unitDigits[unit]);
  const perDay = 86400n * per;
  const days = floorDiv(v, perDay);
  return `${dateText(days)} ${timeText(v - days * perDay, unit)}${tz === 'UTC' ? 'Z' : ''}`;
};
const decimalText = (words, scale) => {
  let u = 0n;
  for (let w = words.length - 1; w >= 0; --w) u = (u << 32n) | BigInt(words[w]);
  const bits = BigInt(words.length * 32);
  if (u >> (bits - 1n)) u -= 1n << bits;
  const neg = u < 0n;
  let digits = (neg ? -u : u).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return (neg ? '-' : '') + digits;
};
const hex = (bytes) => `0x${Buffer.from(bytes).toString('hex')}`;

// The value at row i of one arrow-js Data (a batch's column or a child), from its buffers.
const valueAt = (data, i) => {
  if (!data.getValid(i)) return null;
  const t = data.type;
  const T = arrow.Type;
  switch (t.typeId) {
    case T.Dictionary: {
      // The dictionary may be several chunks (a delta appends one).
      let k = Number(data.values[i]);
      for (const chunk of data.dictionary.data) {
        if (k < chunk.length) return valueAt(chunk, k);
        k -= chunk.length;
      }
      throw new Error(`dictionary index ${data.values[i]} past the dictionary's ${data.dictionary.length} values`);
    }
    case T.Bool: return ((data.values[(data.offset + i) >> 3] >> ((data.offset + i) & 7)) & 1) === 1;
    case T.Int: return data.values[i];
    case T.Float: return t.precision === arrow.Precision.HALF ? arrow.util.uint16ToFloat64(data.values[i]) : data.values[i];
    case T.Decimal: return decimalText(data.values.subarray(i * t.bitWidth / 32, (i + 1) * t.bitWidth / 32), t.scale);
    case T.Date: return t.unit === arrow.DateUnit.DAY ? dateText(data.values[i]) : dateText(floorDiv(BigInt(data.values[i]), 86400000n));
    case T.Time: return timeText(BigInt(data.values[i]), t.unit);
    case T.Timestamp: return timestampText(BigInt(data.values[i]), t.unit, t.timezone);
    case T.Utf8: case T.LargeUtf8:
      return Buffer.from(data.values.subarray(Number(data.valueOffsets[i]), Number(data.valueOffsets[i + 1]))).toString('utf8');
    case T.Binary: case T.LargeBinary:
      return hex(data.values.subarray(Number(data.valueOffsets[i]), Number(data.valueOffsets[i + 1])));
    case T.FixedSizeBinary: return hex(data.values.subarray(i * t.byteWidth, (i + 1) * t.byteWidth));
    case T.List: case T.LargeList: {
      const out = [];
      for (let j = Number(data.valueOffsets[i]); j < Number(data.valueOffsets[i + 1]); ++j) out.push(valueAt(data.children[0], j));
      return out;
    }
    case T.FixedSizeList: {
      const out = [];
      for (let j = i * t.listSize; j < (i + 1) * t.listSize; ++j) out.push(valueAt(data.children[0], j));
      return out;
    }
    case T.Struct: {
      const out = {};
      t.children.forEach((f, c) => { out[f.name] = valueAt(data.children[c], i); });
      return out;
    }
    case T.Map: {
      const entries = data.children[0];
      const out = [];
      for (let j = data.valueOffsets[i]; j < data.valueOffsets[i + 1]; ++j) {
        out.push({ key: valueAt(entries.children[0], j), value: valueAt(entries.children[1], j) });
      }
      return out;
    }
    case T.Union: case T.DenseUnion: case T.SparseUnion: {  // the active member's value, as quiver prints a union
      const child = t.typeIdToChildIndex[data.typeIds[i]];
      const j = t.mode === arrow.UnionMode.Dense ? data.valueOffsets[i] : i;
      return valueAt(data.children[child], j);
    }
    default: throw new Error(`no text form for ${t}`);
  }
};

// JSON.parse with integer literals past 2^53 kept exact, as BigInt: such literals are quoted
// with a marker before parsing (outside strings only) and turned back by the reviver.
const parseExact = (line) => {
  let out = '', inString = false;
  for (let i = 0; i < line.length; ++i) {
    const ch = line[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += line[++i];
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(line.slice(i));
      const tok = m[0];
      out += !m[1] && !m[2] && !Number.isSafeInteger(Number(tok)) ? `"\\u0000${tok}"` : tok;
      i += tok.length - 1;
    } else {
      out += ch;
    }
  }
  return JSON.parse(out, (k, v) => (typeof v === 'string' && v.startsWith('\u0000') ? BigInt(v.slice(1)) : v));
};

// Canonical text of a JSON value: numbers and numeric strings alike, object keys in order.
const norm = (v, float32) => {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map((x) => norm(x, float32)).join(',')}]`;
  if (typeof v === 'object') return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${norm(v[k], float32)}`).join(',')}}`;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') {
    // quiver writes NaN and infinities as JSON strings.
    if (!Number.isFinite(v)) return JSON.stringify(Number.isNaN(v) ? 'NaN' : v > 0 ? 'inf' : '-inf');
    return String(float32 ? Math.fround(v) : v);
  }
  return JSON.stringify(v);
};

const cmd = argv.shift();
if (cmd === 'check') {
  const [file, jsonl] = argv;
  let table;
  try { table = readTable(file); } catch (e) { fail(e.message); }
  const expected = fs.readFileSync(jsonl, 'utf8').split('\n').filter((l) => l.length > 0).map(parseExact);
  const problems = [];
  if (table.numRows !== expected.length) problems.push(`${table.numRows} rows, expected ${expected.length}`);
  const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]));
  const isFloat32 = Object.fromEntries(table.schema.fields.map((f) => [f.name, f.type.typeId === arrow.Type.Float && f.type.precision === arrow.Precision.SINGLE]));
  let row = 0, shown = 0, differing = 0;
  for (const batch of table.batches) {
    for (let i = 0; i < batch.numRows; ++i, ++row) {
      const want = expected[row];
      if (!want) continue;
      table.schema.fields.forEach((f, c) => {
        const got = norm(valueAt(batch.data.children[c], i), isFloat32[f.name]);
        const w = want[f.name];
        const exp = norm(typeof w === 'number' || (isFloat32[f.name] && typeof w === 'string' && w !== 'NaN' && !/inf/.test(w)) ? Number(w) : w, isFloat32[f.name]);
        if (got !== exp && ++differing && shown++ < 5) problems.push(`row ${row}, column ${f.name}: ${got}, expected ${exp}`);
      });
    }
  }
  if (differing > 5) problems.push(`${differing - 5} more differing values`);
  // The dictionary messages, as framed in the file: whole ones and deltas.
  const dictionaries = { whole: 0, delta: 0 };
  const bytes = fs.readFileSync(file);
  const messages = new arrow.MessageReader(bytes.subarray(bytes.subarray(0, 6).toString() === 'ARROW1' ? 8 : 0));
  for (let m; (m = messages.readMessage()); messages.readMessageBody(m.bodyLength)) {
    if (m.headerType === arrow.MessageHeader.DictionaryBatch) ++dictionaries[m.header().isDelta ? 'delta' : 'whole'];
  }
  console.log(JSON.stringify({ ok: problems.length === 0, rows: table.numRows, batches: table.batches.length, dictionaries, types, problems }));
  process.exit(problems.length === 0 ? 0 : 1);
} else if (cmd === 'write') {
  const batchRows = Number(flag('--batch-rows') ?? 1e9);
  const dictCols = (flag('--dictionary') ?? '').split(',').filter((s) => s.length > 0);
  const replace = boolFlag('--replace-dictionaries');
  const sparse = boolFlag('--sparse-unions');
  const [input, out, format = 'file', compression = 'none'] = argv;
  if (format !== 'file' && format !== 'stream') fail(`format must be file or stream, got ${format}`);
  if (compression !== 'none' && compression !== 'lz4') fail(`compression must be none or lz4, got ${compression}`);
  let table;
  try { table = readTable(input); } catch (e) { fail(e.message); }
  for (const c of dictCols) {
    const f = table.schema.fields.find((x) => x.name === c);
    if (!f || f.type.typeId !== arrow.Type.Utf8) fail(`--dictionary ${c}: not a string column`);
  }
  const isUnion = (t) => t.typeId === arrow.Type.Union || t.typeId === arrow.Type.DenseUnion || t.typeId === arrow.Type.SparseUnion;
  const fields = table.schema.fields.map((f, k) => (dictCols.includes(f.name)
    ? new arrow.Field(f.name, new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), k), f.nullable, f.metadata)
    : sparse && isUnion(f.type) ? new arrow.Field(f.name, new arrow.SparseUnion(f.type.typeIds, f.type.children), f.nullable, f.metadata)
      : f));
  // A union column's rows as a sparse union of `type`: member c holds row i's value where row i
  // chose c, else null.
  const toSparse = (type, col, n) => {
    const t = col.type;
    const children = t.children.map((cf, c) => {
      const b = arrow.makeBuilder({ type: cf.type, nullValues: [null] });
      const member = new arrow.Vector([col.children[c]]);
      for (let i = 0; i < n; ++i) {
        const chosen = t.typeIdToChildIndex[col.typeIds[i]] === c;
        b.append(chosen ? member.get(t.mode === arrow.UnionMode.Dense ? col.valueOffsets[i] : i) : null);
      }
      return b.flush();
    });
    return arrow.makeData({ type, length: n, nullCount: 0, typeIds: col.typeIds.slice(0, n), children });
  };
  const schema = new arrow.Schema(fields, table.schema.metadata);
  // One builder per dictionary column for the whole file: each flush's dictionary extends the
  // last one, which the writer sends as a delta. A new builder per batch replaces it instead.
  const newBuilder = (f) => arrow.makeBuilder({ type: f.type, nullValues: [null] });
  const builders = new Map(fields.filter((f) => dictCols.includes(f.name)).map((f) => [f.name, newBuilder(f)]));
  const batches = [];
  for (const src of table.batches) {
    for (let a = 0; a < src.numRows; a += batchRows) {
      const part = src.slice(a, Math.min(src.numRows, a + batchRows));
      const children = fields.map((f, c) => {
        const col = part.data.children[c];
        if (sparse && isUnion(f.type)) return toSparse(f.type, col, part.numRows);
        if (!dictCols.includes(f.name)) return col;
        const b = replace ? newBuilder(f) : builders.get(f.name);
        for (let i = 0; i < part.numRows; ++i) b.append(valueAt(col, i));
        return b.flush();
      });
      batches.push(new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(fields), length: part.numRows, children })));
    }
  }
  const options = compression === 'lz4' ? { compressionType: arrow.CompressionType.LZ4_FRAME } : {};
  const Writer = format === 'file' ? arrow.RecordBatchFileWriter : arrow.RecordBatchStreamWriter;
  try {
    const writer = new Writer(options);
    writer.reset(undefined, schema);
    for (const b of batches) writer.write(b);
    writer.finish();
    fs.writeFileSync(out, writer.toUint8Array(true));
  } catch (e) { fail(e.message); }
  console.log(JSON.stringify({ ok: true, rows: table.numRows, batches: batches.length }));
} else {
  fail(`unknown command ${cmd}`);
}
