"""koma: the exact rules of shogi and its variants, two to four players.

    import koma
    v = koma.Variant.load("yonin", pawn_drop_mate="allowed")
    g = koma.Game(v)
    g.play("5g5f")
    print(g.legal_moves()[:3], g.to_move, g.over)

The classes wrap koma's C++ API; docs/python.md is the manual.
"""
import os as _os

from . import _koma
from ._koma import (
    WIN_SCORE,
    DescriptorError,
    Error,
    Game,
    IllegalMove,
    Kind,
    Move,
    NotationError,
    Piece,
    Player,
    Position,
    Record,
    RecordError,
    Result,
    SeatScore,
    Variant,
    perft,
    perft_divide,
    read_record,
    read_record_text,
    variants,
)

_koma._set_variants_dir(_os.path.join(_os.path.dirname(__file__), "variants"))

__all__ = [
    "WIN_SCORE",
    "DescriptorError",
    "Error",
    "Game",
    "IllegalMove",
    "Kind",
    "Move",
    "NotationError",
    "Piece",
    "Player",
    "Position",
    "Record",
    "RecordError",
    "Result",
    "SeatScore",
    "Variant",
    "perft",
    "perft_divide",
    "read_record",
    "read_record_text",
    "variants",
]


_MAKERS = {
    "Game._restore",
    "Move._make",
    "Position.from_text",
    "Result",
    "Variant._from_source",
    "Record._from_line",
}


def _restore(maker, args):
    """Remakes a pickled koma object: `maker` names the function, e.g.
    "Position.from_text", that makes it from `args` (see __reduce__)."""
    if maker not in _MAKERS:
        raise ValueError("not a pickled koma object: " + repr(maker))
    target = _koma
    for name in maker.split("."):
        target = getattr(target, name)
    return target(*args)
