# The legal moves of a decision as the service sends them: serialized hunters.v1 LegalMove
# entries, built here because listing a hundred moves in Python costs more than playing one.
# Included by _core.pyx (its State, gen_moves, codes_to_actions, key_x/key_y, T_gid).
#
# The bytes are exactly what protobuf writes for LegalMove(move=Move(carcassonne=CarcassonneMove(
# x, y, rotation, occupant, retake)), action) as field `field` of the listing message: fields in
# number order, zeros of plain proto3 fields left out, the optional retake written whenever set.
# tests/service/test_legal_encoding.py checks them against the protobuf library's own.

from cpython.bytes cimport PyBytes_FromStringAndSize

DEF _ENTRY_MAX = 64  # bytes of one entry at most (tags, lengths and varints of at most 5 bytes each)
DEF _PIECE_MEEPLE = 1  # hunters.v1.PieceKind
DEF _PIECE_HUT = 2


cdef inline int _varint(unsigned char* out, uint64_t v) noexcept nogil:
    cdef int n = 0
    while v >= 0x80:
        out[n] = <unsigned char>((v & 0x7F) | 0x80)
        v >>= 7
        n += 1
    out[n] = <unsigned char>v
    return n + 1


cdef inline uint32_t _zigzag(int v) noexcept nogil:
    return (<uint32_t>v << 1) ^ <uint32_t>(-(v < 0))


cdef int _entry(unsigned char* out, int field, int tile, uint32_t code, uint32_t action) noexcept nogil:
    """One LegalMove entry of internal move `code` (tile `tile` in hand) and its action; returns
    its length."""
    cdef unsigned char carc[32]
    cdef unsigned char legal[48]
    cdef int n = 0, m = 0, k, x, y, rot, slot, local, ret, zone, kind
    cdef uint16_t key = code >> 16
    x = key_x(key)
    y = key_y(key)
    rot = (code >> 14) & 3
    slot = (code >> 9) & 31
    ret = <int>(code & 511) - 1
    if x:
        carc[n] = 0x08
        n += 1 + _varint(carc + n + 1, _zigzag(x))
    if y:
        carc[n] = 0x10
        n += 1 + _varint(carc + n + 1, _zigzag(y))
    if rot:
        carc[n] = 0x18
        n += 1 + _varint(carc + n + 1, <uint64_t>rot)
    if slot:
        if slot >= HUT_SLOT:
            kind, local = _PIECE_HUT, slot - HUT_SLOT
        else:
            kind, local = _PIECE_MEEPLE, slot - MEEPLE_SLOT
        zone = tile * 10 + local
        carc[n] = 0x22  # occupant, length-delimited: kind (never 0), then the zone unless 0
        carc[n + 1] = 2 + (2 + (zone >= 0x80) if zone else 0)
        carc[n + 2] = 0x08
        carc[n + 3] = <unsigned char>kind
        n += 4
        if zone:
            carc[n] = 0x10
            n += 1 + _varint(carc + n + 1, <uint64_t>zone)
    if ret >= 0:
        carc[n] = 0x28
        n += 1 + _varint(carc + n + 1, <uint64_t>T_gid[ret])
    # LegalMove: move (Move: carcassonne = 1), then the action unless 0
    legal[0] = 0x0A
    legal[1] = <unsigned char>(n + 2)
    legal[2] = 0x0A
    legal[3] = <unsigned char>n
    memcpy(legal + 4, carc, n)
    m = n + 4
    if action:
        legal[m] = 0x10
        m += 1 + _varint(legal + m + 1, action)
    k = _varint(out, (<uint64_t>field << 3) | 2)
    out[k] = <unsigned char>m
    memcpy(out + k + 1, legal, m)
    return k + 1 + m


def legal_entries(CoreGame g, int field):
    """Every legal move of `g`'s decision with its action code, as serialized LegalMove entries of
    the repeated field number `field` (1 to 15), in legal_actions() order; b"" without a decision."""
    if not 1 <= field <= 15:
        raise ValueError("field must be from 1 to 15")
    if g.s.tile < 0:
        return b""
    cdef uint32_t* codes = <uint32_t*>checked_malloc(2 * MAXMOVES * sizeof(uint32_t))
    cdef uint32_t* actions = codes + MAXMOVES
    cdef unsigned char* out = NULL
    cdef int n, i, size = 0
    try:
        with nogil:
            n = gen_moves(g.s, codes)
            memcpy(actions, codes, n * sizeof(uint32_t))
            codes_to_actions(g.s, actions, n)
        out = <unsigned char*>checked_malloc(n * _ENTRY_MAX + 1)
        with nogil:
            for i in range(n):
                size += _entry(out + size, field, g.s.tile, codes[i], actions[i])
        return PyBytes_FromStringAndSize(<char*>out, size)
    finally:
        free(codes)
        free(out)
