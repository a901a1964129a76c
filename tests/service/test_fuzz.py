"""Property-based fuzzing of every RPC of every hunters.v1 service, over every request field.

Requests are drawn from the message descriptors themselves (so a new field or service is fuzzed
without touching this file): integers at and beyond their edges, long and odd strings, options
with NaN, ±Inf, huge numbers and deep nesting, JSON moves nested far too deep, raw junk bytes.
The server must never answer INTERNAL or UNKNOWN, no match may change, and its memory stays bounded.
1,000 cases in the default run, 10,000 with --slow."""

import importlib
import math
import os
import pkgutil

import grpc
from google.protobuf import descriptor as D
from google.protobuf import message_factory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hunters.v1

from .helpers import bearer, create, stubs

_INT_RANGES = {
    D.FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    D.FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    D.FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    D.FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    D.FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    D.FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    D.FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    D.FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    D.FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    D.FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
    D.FieldDescriptor.TYPE_ENUM: (-(2**31), 2**31 - 1),
}
_OPTION_NAMES = [
    "normal_deck",
    "menhir_deck",
    "board",
    "grid",
    "rows",
    "cols",
    "spaces",
    "stall_rounds",
    "winter_start",
    "mammoths_summer",
    "mammoths_winter",
    "straight_jumps",
    "ties",
    "summer",
    "winter",
    "open_collections",
]


def services():
    """(method path, streaming, request class) of every RPC in hunters.v1."""
    out = []
    for info in pkgutil.iter_modules(hunters.v1.__path__):
        if not info.name.endswith("_pb2"):
            continue
        module = importlib.import_module(f"hunters.v1.{info.name}")
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                out.append(
                    (
                        f"/{service.full_name}/{method.name}",
                        method.server_streaming,
                        message_factory.GetMessageClass(method.input_type),
                    )
                )
    return sorted(out, key=lambda m: m[0])


def ints(lo, hi):
    edges = sorted(
        {
            lo,
            hi,
            0,
            max(lo, -1),
            min(hi, 1),
            min(hi, 2**31 - 1),
            max(lo, -(2**31)),
            min(hi, 2**31),
            min(hi, 2**63 - 1),
            min(hi, 10**7),
        }
    )
    return st.one_of(st.integers(max(lo, -5), min(hi, 120)), st.sampled_from(edges), st.integers(lo, hi))


def long_text():
    return st.builds(lambda ch, n: ch * n, st.characters(exclude_categories=("Cs",)), st.integers(65, 12_000))


def texts(known=()):
    return st.one_of(st.sampled_from(["", *known]), st.text(max_size=24), long_text())


def deep_list(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**70), 2**70),
    st.text(max_size=12),
    long_text(),
)
json_values = st.one_of(
    st.recursive(
        json_scalars,
        lambda c: (
            st.lists(c, max_size=6)
            | st.dictionaries(st.sampled_from(_OPTION_NAMES) | st.text(max_size=8), c, max_size=5)
        ),
        max_leaves=24,
    ),
    st.integers(20, 150).map(deep_list),
)
json_texts = st.one_of(
    st.sampled_from(
        [
            "",
            "{",
            "[]",
            "null",
            '{"x":1}',
            '{"x":0,"y":1,"rotation":0,"retake":2147483648}',
            '{"x":0,"y":1,"rotation":0,"occupant":{"kind":"meeple","zone":1e400}}',
        ]
    ),
    st.integers(1, 100_000).map(lambda d: "[" * d + "]" * d),
    st.integers(1, 50_000).map(lambda d: '{"a":' * d + "1" + "}" * d),
    json_values.map(lambda v: repr(v)),
)


def set_json(value_msg, value, depth=0):
    """Fill a google.protobuf.Value from plain data (NaN and ±Inf included)."""
    if isinstance(value, bool):
        value_msg.bool_value = value
    elif isinstance(value, (int, float)):
        value_msg.number_value = float(value) if math.isfinite(float(value)) or not isinstance(value, int) else 0.0
    elif isinstance(value, str):
        value_msg.string_value = value
    elif isinstance(value, list):
        value_msg.list_value.SetInParent()
        for item in value:
            set_json(value_msg.list_value.values.add(), item, depth + 1)
    elif isinstance(value, dict):
        value_msg.struct_value.SetInParent()
        for k, v in value.items():
            set_json(value_msg.struct_value.fields[k], v, depth + 1)
    else:
        value_msg.null_value = 0


@st.composite
def messages(draw, cls, known_ids, depth=0):
    """A message of class `cls` with a random subset of its fields set to hostile values."""
    msg = cls()
    desc = cls.DESCRIPTOR
    if desc.full_name == "google.protobuf.Struct":
        for k, v in draw(
            st.dictionaries(st.sampled_from(_OPTION_NAMES) | st.text(max_size=8), json_values, max_size=4)
        ).items():
            set_json(msg.fields[k], v)
        return msg
    if desc.full_name == "google.protobuf.Value":
        set_json(msg, draw(json_values))
        return msg
    for field in desc.fields:
        if not draw(st.booleans()):
            continue
        values = (
            draw(st.lists(_field_values(field, known_ids, depth), min_size=1, max_size=4))
            if field.is_repeated
            else [draw(_field_values(field, known_ids, depth))]
        )
        for value in values:
            if field.message_type is not None:
                target = getattr(msg, field.name).add() if field.is_repeated else getattr(msg, field.name)
                target.CopyFrom(value)
            elif field.is_repeated:
                getattr(msg, field.name).append(value)
            else:
                setattr(msg, field.name, value)
    return msg


def _field_values(field, known_ids, depth):
    T = D.FieldDescriptor
    if field.message_type is not None:
        if depth >= 4:
            return st.just(message_factory.GetMessageClass(field.message_type)())
        return messages(message_factory.GetMessageClass(field.message_type), known_ids, depth + 1)
    if field.type in _INT_RANGES:
        lo, hi = _INT_RANGES[field.type]
        if field.name == "games":  # a simulation this large would only wait for the deadline
            return st.one_of(st.integers(-3, 40), st.sampled_from([lo, hi, 10**7 + 1]))
        return ints(lo, hi)
    if field.type == T.TYPE_BOOL:
        return st.booleans()
    if field.type in (T.TYPE_DOUBLE, T.TYPE_FLOAT):
        return st.floats(allow_nan=True, allow_infinity=True, width=32 if field.type == T.TYPE_FLOAT else 64)
    if field.type == T.TYPE_BYTES:
        return st.binary(max_size=64)
    if field.name == "json":
        return json_texts
    if field.name.endswith("match_id"):
        return texts(known_ids)
    return texts(("carcassonne_hg", "jaeger_sammler"))


def call_raw(channel, method, streaming, payload, metadata):
    ident = lambda b: b
    if streaming:
        call = channel.unary_stream(method, request_serializer=ident, response_deserializer=ident)(
            payload, timeout=0.5, metadata=metadata
        )  # a live watch waits for moves that never come
        try:
            for _ in zip(range(3), call):
                pass
        finally:
            call.cancel()
    else:
        channel.unary_unary(method, request_serializer=ident, response_deserializer=ident)(
            payload, timeout=5, metadata=metadata
        )


def rss_bytes():
    """Resident memory of this process, which runs the server's threads."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_every_rpc_refuses_hostile_requests_cleanly(server, request):
    channel, stub, _ = stubs(server.port)
    match = create(stub, seed=2)
    mid = match.match.match_id
    jaeger = stub.CreateMatch(_jaeger_request())
    watched = [mid, jaeger.match.match_id]
    before = [snapshot(stub, m) for m in watched]
    tokens = [None, "junk", "x" * 5000, match.seat_tokens[1], jaeger.seat_tokens[1]]
    methods = services()
    assert len(methods) >= 10
    examples = 10_000 if request.config.getoption("--slow") else 1_000
    start_rss = rss_bytes()
    refused = set()

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(
        st.sampled_from(methods).flatmap(
            lambda m: st.tuples(
                st.just(m),
                st.one_of(messages(m[2], tuple(watched)).map(lambda r: r.SerializeToString()), st.binary(max_size=64)),
            )
        ),
        st.sampled_from(tokens),
    )
    def one(case, token):
        (name, streaming, _), payload = case
        try:
            call_raw(channel, name, streaming, payload, bearer(token) if token else None)
        except grpc.RpcError as err:
            assert err.code() not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN), (name, err.details())
            assert len(err.details() or "") <= 600, (name, "an error message echoes too much")
            refused.add(err.code())
        assert [snapshot(stub, m) for m in watched] == before

    one()
    assert grpc.StatusCode.INVALID_ARGUMENT in refused
    assert rss_bytes() - start_rss < 300 * 2**20, "the server's memory grew by more than 300 MB"
    channel.close()


def _jaeger_request():
    from hunters.v1 import matches_pb2

    return matches_pb2.CreateMatchRequest(config=matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=3))


def snapshot(stub, match_id):
    from hunters.v1 import matches_pb2

    return stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).SerializeToString(deterministic=True)
