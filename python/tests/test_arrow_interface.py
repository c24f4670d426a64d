"""The Arrow PyCapsule interface from the consumer's side: capsules taken back through quiver's
own C Data importer, and the C structs read with ctypes against the Arrow C Data Interface
layout (pyarrow, polars and duckdb for Python are not packaged for Debian 12)."""
import ctypes

import pytest

import quiver


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_void_p),
    ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))), ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))), ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)), ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))), ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))), ("private_data", ctypes.c_void_p),
]

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def struct_of(capsule, name, cls):
    return ctypes.cast(_get_pointer(capsule, name.encode()), ctypes.POINTER(cls)).contents


DATA = b"id,price,name,day\n1,1.5,alpha,2024-01-02\n2,,beta,\n3,3.25,,2024-03-04\n"


@pytest.fixture
def table():
    return quiver.read_csv(DATA)


def test_capsules_round_trip_through_quivers_importer(table, lineitem_csv):
    assert quiver.from_arrow(table).equals(table)
    batch = table.to_batches()[0]
    back = quiver.from_arrow(batch)  # __arrow_c_stream__ first
    assert back.equals(table)
    s, a = batch.__arrow_c_array__()
    imported = quiver._quiver._import_array(s, a)
    assert isinstance(imported, quiver.RecordBatch) and imported.equals(batch)
    col = batch.column("price")
    arr = quiver._quiver._import_array(*col.__arrow_c_array__())
    assert isinstance(arr, quiver.Array) and arr.name == "price" and arr.to_pylist() == [1.5, None, 3.25]
    assert quiver._quiver._import_schema(table.__arrow_c_schema__()) == table.schema
    big = quiver.read_csv(lineitem_csv, batch_rows=700)
    assert quiver.from_arrow(big).equals(big) and len(quiver.from_arrow(big).to_batches()) == len(big.to_batches())
    # A slice keeps its offset across the interface.
    assert quiver.from_arrow(big[650:1450]).equals(big[650:1450])


def test_a_capsule_is_consumed_once(table):
    stream = table.__arrow_c_stream__()
    quiver._quiver._import_stream(stream)
    with pytest.raises(quiver.InvalidInputError, match=r"the Arrow C struct was already consumed \(its release is null\)"):
        quiver._quiver._import_stream(stream)
    with pytest.raises(quiver.InvalidInputError, match="expected a PyCapsule named 'arrow_array_stream'"):
        quiver._quiver._import_stream(table.__arrow_c_schema__())


def test_schema_struct_layout(table):
    capsule = table.__arrow_c_schema__()
    s = struct_of(capsule, "arrow_schema", ArrowSchema)
    assert s.format == b"+s" and s.n_children == 4
    children = [s.children[i].contents for i in range(4)]
    assert [(c.name, c.format) for c in children] == [(b"id", b"l"), (b"price", b"g"), (b"name", b"u"), (b"day", b"tdD")]
    assert all(c.flags & 2 for c in children)  # ARROW_FLAG_NULLABLE
    # A consumer releases what it took: the release callback marks the struct released.
    s.release(ctypes.byref(s))
    assert not s.release


def test_array_struct_layout(table):
    schema_capsule, array_capsule = table.to_batches()[0].__arrow_c_array__()
    a = struct_of(array_capsule, "arrow_array", ArrowArray)
    assert (a.length, a.null_count, a.offset, a.n_children) == (3, 0, 0, 4)
    ids = a.children[0].contents
    assert (ids.length, ids.null_count, ids.n_buffers) == (3, 0, 2)
    assert list((ctypes.c_int64 * 3).from_address(ids.buffers[1])) == [1, 2, 3]
    price = a.children[1].contents
    assert price.null_count == 1
    validity = ctypes.c_uint8.from_address(price.buffers[0]).value
    assert [bool(validity >> i & 1) for i in range(3)] == [True, False, True]
    assert [(ctypes.c_double * 3).from_address(price.buffers[1])[i] for i in (0, 2)] == [1.5, 3.25]
    names = a.children[2].contents
    assert names.n_buffers == 3
    offsets = list((ctypes.c_int32 * 4).from_address(names.buffers[1]))
    data = ctypes.string_at(names.buffers[2], offsets[-1])
    assert [data[offsets[i]:offsets[i + 1]] for i in range(2)] == [b"alpha", b"beta"]
    day = a.children[3].contents
    assert list((ctypes.c_int32 * 3).from_address(day.buffers[1]))[0] == 19724  # 2024-01-02 in days


def test_numpy_shares_the_exported_buffer(lineitem_csv):
    t = quiver.read_csv(lineitem_csv).combine_chunks()
    _, array_capsule = t.column("l_orderkey").chunk(0).__arrow_c_array__()
    a = struct_of(array_capsule, "arrow_array", ArrowArray)
    assert t.column("l_orderkey").to_numpy().__array_interface__["data"][0] == a.buffers[1]


def test_stream_struct_through_its_callbacks(lineitem_csv):
    t = quiver.read_csv(lineitem_csv, batch_rows=2000)
    capsule = t.__arrow_c_stream__()
    st = struct_of(capsule, "arrow_array_stream", ArrowArrayStream)
    schema = ArrowSchema()
    assert st.get_schema(ctypes.byref(st), ctypes.byref(schema)) == 0
    assert schema.n_children == 16 and schema.children[0].contents.name == b"l_orderkey"
    schema.release(ctypes.byref(schema))
    lengths = []
    while True:
        arr = ArrowArray()
        assert st.get_next(ctypes.byref(st), ctypes.byref(arr)) == 0
        if not arr.release:
            break
        lengths.append(arr.length)
        arr.release(ctypes.byref(arr))
    assert lengths == [2000, 2000, 1000]
    assert st.get_last_error(ctypes.byref(st)) is None


def test_requested_schema(table):
    same = table.__arrow_c_schema__()
    assert quiver._quiver._import_stream(table.__arrow_c_stream__(same)).equals(table)
    other = quiver.read_csv(b"x\n1\n").__arrow_c_schema__()
    with pytest.raises(NotImplementedError, match="requested_schema must be None or the data's schema"):
        table.__arrow_c_stream__(other)
