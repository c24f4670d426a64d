#!/usr/bin/env python3
"""Writes fuzz seeds from the parquet-testing corpus (kept out of the repository):
footer_fuzz seeds are the serialized FileMetaData of each file (at most 100 KB);
page_header_fuzz seeds are the first 256 bytes at each column chunk's page offsets, as
reported by `quiver meta --json`.

usage: make_seeds.py <parquet-testing dir> <quiver binary> <out dir>
"""
import hashlib, json, os, struct, subprocess, sys

src, quiver, out = sys.argv[1:4]
os.makedirs(os.path.join(out, "footer"), exist_ok=True)
os.makedirs(os.path.join(out, "page_header"), exist_ok=True)

def put(kind, data):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, kind, name), "wb") as f:
        f.write(data)

for root, _, files in os.walk(src):
    for fn in files:
        if not (fn.endswith(".parquet") or fn.endswith(".parquet.encrypted")):
            continue
        path = os.path.join(root, fn)
        data = open(path, "rb").read()
        if len(data) < 12 or data[-4:] != b"PAR1":
            continue
        n = struct.unpack("<I", data[-8:-4])[0]
        if n <= len(data) - 12 and n <= 100_000:
            put("footer", data[len(data) - 8 - n:len(data) - 8])
        meta = subprocess.run([quiver, "meta", "--json", path], capture_output=True)
        if meta.returncode != 0:
            continue
        for rg in json.loads(meta.stdout)["row_groups"][:2]:
            for col in rg["columns"]:
                for key in ("dictionary_page_offset", "data_page_offset"):
                    off = col.get(key)
                    if off is not None and 0 < off < len(data):
                        put("page_header", data[off:off + 256])
