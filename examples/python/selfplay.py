#!/usr/bin/env python3
"""selfplay.py: CPU levels play each other, in parallel, writing koma-match's records.

    PYTHONPATH=build/tests/python /usr/bin/python3 examples/python/selfplay.py \\
        --variant yonin --seats strong,normal,easy,easy --games 8 --jobs 2 \\
        --nodes 2000 --record games.jsonl
    /usr/bin/python3 examples/python/selfplay.py ... --scheduler tcp://10.0.0.5:8786

The games and the JSON Lines records are those koma-match writes for the same
arguments, byte for byte (docs/notation.md#game-records), so koma-replay and
koma.read_record read them. Games run in this process (--jobs 1), in a pool of
processes (--jobs J), or on a Dask distributed cluster (--scheduler ADDRESS);
the records are the same either way and are written in game order.

Each game is played by play_game(), a top-level function of plain arguments
that returns the record line: multiprocessing and Dask ship it to their worker
processes, and every worker loads the variant itself.
"""

import argparse
import functools
import json
import math
import multiprocessing
import os
import re
import sys
import time

try:
    import koma
except ImportError as _error:  # reported by main(); play_game needs it on workers
    koma = None
    _KOMA_IMPORT_ERROR = _error

PROG = "selfplay.py"

# koma-match's limits (examples/match/main.cpp, examples/common/driver.hpp).
MAX_GAMES = 1_000_000
MAX_JOBS = 256
MAX_SEED = 10**15
MAX_NODES = 10**12
MAX_SECONDS = 86400.0
MAX_PLIES = 1_000_000
DEFAULT_CAP = 1000  # --max-plies where the variant has no ply limit of its own
EXPERT_NODES = 20000  # expert's node limit when neither --nodes nor --seconds is given
LEVELS = ("easy", "normal", "medium", "strong", "hard", "expert")

USAGE = """\
usage: selfplay.py --variant NAME|FILE [--option k=v]... [--first-seat N] [--position TEXT]
  --seats LEVEL,LEVEL,... --games N [--seed S] [--jobs J | --scheduler ADDRESS]
  [--rotate-first] [--max-plies P] [--nodes N] [--level-nodes LEVEL=N]... [--seconds X]
  [--record FILE.jsonl]

Plays N games between CPU levels (easy, normal, medium, strong, hard, expert; one
per seat) and writes each game as one line of JSON (docs/notation.md#game-records)
to --record, or to standard output; a summary goes to standard error.

The options mean what they mean to koma-match, and for the same arguments the
records are the same as koma-match --record writes, byte for byte. Game g (counted
from 0) rotates the --seats list by g: entry i sits at seat ((i + g) mod seats) + 1.
Every player of game g gets the seed S*1000 + g*8 + seat; under node limits (not
--seconds) a match is reproducible and its records are the same for any --jobs or
cluster. Without --nodes and --seconds, expert players search 20000 nodes a move.
A game still going after --max-plies plies (default 1000 where the variant has no
ply limit of its own, else only the variant's limit) is adjudicated ("adjudicated"):
the seats still in the game share the best place, eliminated seats keep theirs.

Not supported: koma-match's --opening-plies (its random openings come from C++'s
std::mt19937_64) and its table of places.

--jobs J plays J games at once in worker processes. --scheduler ADDRESS plays them
on a Dask distributed cluster (Debian: python3-distributed); its workers need the
koma module and, for a descriptor FILE, the file at the same absolute path."""


class UsageError(Exception):
    """A bad command line: reported as `selfplay.py: message`, exit status 2."""


class Failure(Exception):
    """A failure while playing: reported as `selfplay.py: message`, exit status 1."""


# ---------------------------------------------------------------------------
# One game (runs in worker processes: plain arguments in, a record line out).


def entry_at(seat, g, n):
    """The --seats entry sitting at `seat` in game g: entry i sits at ((i + g) mod n) + 1."""
    return (seat - 1 - g) % n


def cap_places(position, seats):
    """Places for a game stopped by the ply cap: seats still in the game share
    place 1; eliminated seats are ranked by elimination order, the first
    eliminated last."""
    places = [0] * seats
    for j, seat in enumerate(position.eliminated):
        places[seat - 1] = seats - j
    for seat in range(1, seats + 1):
        if position.active(seat) or places[seat - 1] == 0:
            places[seat - 1] = 1
    return places


def play_game(
    g,
    *,
    variant,
    options,
    descriptor,
    overrides,
    levels,
    seed,
    nodes=0,
    seconds=0.0,
    level_nodes=None,
    cap=0,
    rotate_first=False,
    position=None,
):
    """Plays game g (from 0) and returns its record line (no newline).

    variant, options: what koma.Variant.load takes (a name or an absolute path;
    option values as strings). descriptor, overrides: the record's
    "descriptor" and "options". levels: the --seats list, as level names.
    nodes, seconds, level_nodes: the search limits. cap: plies before the
    game is adjudicated (0: none). position: start position text, or None.
    """
    v = koma.Variant.load(variant, **options)
    n = v.seats
    if position is not None:
        game = koma.Game(v, koma.Position.from_text(v, position))
    elif rotate_first:
        game = koma.Game(v, v.start_position(first_seat=g % n + 1))
    else:
        game = koma.Game(v)
    level_nodes = level_nodes or {}
    seating = [levels[entry_at(seat, g, n)] for seat in range(1, n + 1)]
    players = []
    for seat, level in enumerate(seating, 1):
        limit = nodes
        if level == "expert" and not nodes and seconds <= 0:
            limit = EXPERT_NODES
        limit = level_nodes.get(level, limit)
        players.append(
            koma.Player(v, level, nodes=limit, seconds=seconds, seed=seed * 1000 + g * 8 + seat)
        )
    plies = len(game.history)
    while not game.over:
        if cap > 0 and plies >= cap:
            game.adjudicate(cap_places(game.position, n), "adjudicated")
            break
        seat = game.to_move
        try:
            game.play(players[seat - 1].choose(game))
        except koma.Error as e:
            moves = " ".join(game.history) or "-"
            raise Failure(
                f"game {g + 1}, ply {plies + 1}: the {seating[seat - 1]} player of seat {seat} "
                f"failed: {e} (game {g + 1} after the moves: {moves})"
            ) from None
        plies += 1
    moves = game.history
    if moves and moves[-1] == "adjudicate":
        moves.pop()
    record = koma.Record()
    record.variant = v.name
    record.descriptor = descriptor
    record.options = overrides
    record.first_seat = game.start.to_move
    record.start = game.start.text if position is not None else None
    record.seats = seating
    record.moves = moves
    record.result = game.result
    return record.line()


# ---------------------------------------------------------------------------
# The command line.


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def _parser():
    p = _Parser(
        prog=PROG,
        usage=argparse.SUPPRESS,
        description=USAGE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a = p.add_argument
    a("--variant", metavar="NAME|FILE", help="a shipped variant's name or a descriptor file")
    a("--option", action="append", default=[], metavar="KEY=VALUE",
      help="descriptor option override (repeatable)")
    a("--first-seat", metavar="N",
      help="seat to move first (shorthand for --option first_seat=N)")
    a("--position", metavar="TEXT",
      help="start position (SFEN for SFEN variants, else generic text)")
    a("--seats", metavar="LEVEL,...", help="CPU levels, one per seat (rotated game by game)")
    a("--games", metavar="N", help="number of games, 1 to 1000000 (required)")
    a("--seed", metavar="S",
      help="match seed, 0 to 10^15 (default 1); game g's seat s uses S*1000+g*8+s")
    a("--jobs", metavar="J",
      help="games played at once in that many processes, 1 to 256 (default 1: in this process)")
    a("--scheduler", metavar="ADDRESS", help="play the games on this Dask distributed scheduler")
    a("--rotate-first", action="store_true",
      help="game g starts with seat (g mod seats)+1 to move (else first_seat)")
    a("--max-plies", metavar="P",
      help="adjudicate games still going after P plies, 1 to 1000000 (default 1000 for "
      "variants without a ply limit, else none beyond the variant's own)")
    a("--nodes", metavar="N",
      help="node limit per move for every level, 0 to 10^12 (default 0: the level's own; "
      "expert 20000 when neither --nodes nor --seconds is given)")
    a("--level-nodes", action="append", default=[], metavar="LEVEL=N",
      help="node limit per move for that level, over --nodes (repeatable)")
    a("--seconds", metavar="X",
      help="time per move for every level, 0 to 86400 (default 0: none; not reproducible)")
    a("--opening-plies", help=argparse.SUPPRESS)
    a("--record", metavar="FILE.jsonl",
      help="write the records here (default, or '-': standard output)")
    return p


# How koma-match reads a number (Boost's lexical_cast into the option's C++
# type): an optional sign and ASCII digits, nothing around them (no blank, no
# '_', no other script's digits, which Python's int() takes), within the type;
# for --seconds (a double) also a fraction and an exponent, inf, infinity and
# nan, in any case.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?|inf|infinity|nan(?:\([0-9a-z_]*\))?)",
    re.IGNORECASE | re.ASCII)
INT_BITS = 32  # --games, --jobs, --max-plies, --first-seat: C++ int
LONG_BITS = 64  # --seed, --nodes: long long


def _read_number(text, bits):
    """The value koma-match reads from `text`: an int of a signed `bits`-bit
    type (bits=None: a double), or None where it refuses the text."""
    if bits is None:
        if not _NUMBER.fullmatch(text):
            return None
        body = text.lstrip("+-").lower()
        if body.startswith("nan"):
            return math.nan
        value = float(text)
        return None if math.isinf(value) and not body.startswith("inf") else value  # overflow
    if not _WHOLE.fullmatch(text):
        return None
    value = int(text)
    return value if -(2 ** (bits - 1)) <= value < 2 ** (bits - 1) else None


def _joined_values(argv):
    """argv with each numeric option joined to a value that starts with '-'
    ("--seconds", "-inf" -> "--seconds=-inf"): argparse takes -inf or -1e3 for
    an option, koma-match for the value."""
    out = []
    numeric = {"--games", "--seed", "--jobs", "--max-plies", "--nodes", "--seconds",
               "--first-seat"}
    for arg in argv:
        if out and out[-1] in numeric and arg.startswith("-") and not arg.startswith("--"):
            out[-1] += "=" + arg
        else:
            out.append(arg)
    return out


def _checked(args, name, fallback, low, high, bits=INT_BITS):
    """A numeric option in its range, read and worded as koma-match reads it
    (boost::program_options, then driver::checked): a whole number of a signed
    `bits`-bit type, or (bits=None) a number."""
    text = getattr(args, name.replace("-", "_"))
    if text is None:
        return fallback
    value = _read_number(text, bits)
    if value is None:
        shown = f" ('{text}')" if text else ""
        raise UsageError(f"the argument{shown} for option '--{name}' is invalid")
    if not low <= value <= high:
        kind = "a whole number" if bits else "a number"
        if bits is None:
            low, high, value = f"{low:g}", f"{high:g}", text
        raise UsageError(f"--{name} takes {kind} from {low} to {high}, not '{value}'")
    return value


def _level_nodes(kv):
    """--level-nodes LEVEL=N as koma-match reads it (std::stoll: blanks before
    the count are skipped, nothing may follow it)."""
    level, eq, count = kv.partition("=")
    stripped = count.lstrip(" \t\n\v\f\r")
    value = _read_number(stripped, LONG_BITS) if eq and level in LEVELS else None
    if value is None or not 0 <= value <= MAX_NODES:
        raise UsageError(
            f"'{kv}' is not LEVEL=N (a level name, a node count from 0 to {MAX_NODES})"
        )
    return level, value


def _koma_error(e):
    """A koma error as koma's drivers word it."""
    if isinstance(e, koma.DescriptorError):
        where = e.file + (f":{e.line}:{e.column}" if e.line > 0 else "")
        return f"{e.message} ({where})"
    return str(e)


def setup(argv):
    """The match the command line asks for: play_game's common keyword
    arguments, and games, jobs, scheduler, record path."""
    args = _parser().parse_args(_joined_values(argv))
    if args.opening_plies is not None:
        raise UsageError(
            "--opening-plies is not supported: koma-match draws its openings with C++'s "
            "std::mt19937_64"
        )
    if args.seats is None:
        raise UsageError("--seats LEVEL,LEVEL,... is required")
    if args.games is None:
        raise UsageError("--games N is required")
    games = _checked(args, "games", 0, 1, MAX_GAMES)
    seed = _checked(args, "seed", 1, 0, MAX_SEED, bits=LONG_BITS)
    jobs = _checked(args, "jobs", 1, 1, MAX_JOBS)
    nodes = _checked(args, "nodes", 0, 0, MAX_NODES, bits=LONG_BITS)
    seconds = _checked(args, "seconds", 0.0, 0.0, MAX_SECONDS, bits=None)
    level_nodes = dict(_level_nodes(kv) for kv in args.level_nodes)
    max_plies = _checked(args, "max-plies", None, 1, MAX_PLIES)
    _checked(args, "first-seat", 1, -(2**31), 2**31 - 1)  # read now; its range once loaded
    if args.rotate_first and args.first_seat is not None:
        raise UsageError("--rotate-first and --first-seat exclude each other")
    if args.rotate_first and args.position is not None:
        raise UsageError("--rotate-first and --position exclude each other")
    if args.scheduler is not None and args.jobs is not None:
        raise UsageError("--jobs and --scheduler exclude each other")

    # The --option overrides, as the record keeps them; the options to load with.
    overrides = {}
    for kv in args.option:
        key, eq, value = kv.partition("=")
        if not eq or not key:
            raise UsageError(f"--option takes key=value, not '{kv}'")
        overrides[key] = value
    if args.variant is None:
        raise UsageError("--variant FILE is required")
    # A file is loaded by its absolute path, so that worker processes in
    # another directory find it; the record keeps the name as given.
    name = os.path.abspath(args.variant) if os.path.isfile(args.variant) else args.variant
    options = dict(overrides)
    try:
        if args.first_seat is not None:
            options.pop("first_seat", None)
            seats = koma.Variant.load(name, **options).seats
            options["first_seat"] = str(_checked(args, "first-seat", 1, 1, seats))
        v = koma.Variant.load(name, **options)
    except koma.Error as e:
        raise UsageError(_koma_error(e)) from None
    if args.position is not None:
        try:
            koma.Position.from_text(v, args.position)
        except koma.Error as e:
            raise UsageError(f"{e} (--position)") from None

    # --seats: CPU levels only, one per seat.
    levels = [item.strip(" \t") for item in args.seats.split(",")]
    for level in levels:
        if not level:
            raise UsageError("--seats has an empty entry")
        if level == "human":
            raise UsageError("human cannot play in a match; every seat takes a CPU level")
        if level not in LEVELS:
            raise UsageError(f"unknown level '{level}'; levels: {', '.join(LEVELS)}")
    if len(levels) != v.seats:
        s = "" if len(levels) == 1 else "s"
        raise UsageError(f"--seats lists {len(levels)} level{s}, but {v.name} has {v.seats} seats")

    variant_limit = int(v.options["max_plies"])
    cap = max_plies if max_plies is not None else 0 if variant_limit > 0 else DEFAULT_CAP
    common = dict(
        variant=name,
        options=options,
        descriptor=args.variant,
        overrides=overrides,
        levels=levels,
        seed=seed,
        nodes=nodes,
        seconds=seconds,
        level_nodes=level_nodes,
        cap=cap,
        rotate_first=args.rotate_first,
        position=args.position,
    )
    return common, games, jobs, args.scheduler, args.record


# ---------------------------------------------------------------------------
# Running the games: here, in a process pool, or on a Dask cluster. Each
# yields the record lines in game order, as soon as the games before are done.


def run_here(work, games):
    for g in range(games):
        yield work(g)


def run_pool(work, games, jobs):
    with multiprocessing.Pool(min(jobs, games)) as pool:
        yield from pool.imap(work, range(games))


def run_dask(work, games, address):
    try:
        import distributed
    except ImportError as e:
        raise Failure(f"--scheduler needs the Python package distributed (Dask): {e}") from None
    if __name__ != "__main__":
        # Imported as a module: ship play_game by value all the same, so that
        # the workers need not import this file (as they need not for __main__).
        try:
            import cloudpickle

            cloudpickle.register_pickle_by_value(sys.modules[__name__])
        except (ImportError, AttributeError, ValueError):
            pass
    try:
        client = distributed.Client(address, timeout=30)
    except (OSError, TimeoutError, ValueError) as e:
        raise Failure(f"cannot reach the Dask scheduler {address}: {e}") from None
    with client:
        futures = client.map(work, range(games), pure=False)
        try:
            for future in futures:
                try:
                    line = future.result()
                except Exception as e:  # remade from the worker's, maybe as another class
                    raise Failure(str(e)) from None
                yield line
        finally:
            client.cancel(futures)


def _progress(done, total, seconds):
    filled = done * 20 // total
    t = int(seconds)
    clock = f"{t // 60:02d}:{t % 60:02d}"
    if t >= 3600:
        clock = f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}"
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (20 - filled)}] {done}/{total} games  {clock}")
    sys.stderr.flush()


def run(argv):
    common, games, jobs, scheduler, record_path = setup(argv)
    work = functools.partial(play_game, **common)
    if record_path is None or record_path == "-":
        out = sys.stdout
    else:
        try:
            out = open(record_path, "w", encoding="utf-8", newline="\n")
        except OSError as e:
            raise Failure(f"cannot write the record file: {e.strerror} ({record_path})") from None
    progress = sys.stderr.isatty()
    t0 = time.monotonic()
    moves = 0
    lines = None
    try:
        if scheduler is not None:
            lines = run_dask(work, games, scheduler)
        elif jobs > 1 and games > 1:
            lines = run_pool(work, games, jobs)
        else:
            lines = run_here(work, games)
        for done, line in enumerate(lines, 1):
            out.write(line + "\n")
            out.flush()
            moves += len(json.loads(line)["moves"])
            if progress:
                _progress(done, games, time.monotonic() - t0)
    finally:
        if lines is not None:
            lines.close()  # stops the pool or cancels the cluster's games on a failure
        if progress:
            sys.stderr.write("\n")
        if out is not sys.stdout:
            out.close()
    seconds = time.monotonic() - t0
    rate = games / seconds if seconds > 0 else float("inf")
    print(f"{games} games, {moves} moves, {seconds:.1f} s, {rate:.2f} games/s", file=sys.stderr)
    return 0


def main(argv=None):
    if koma is None:
        print(f"{PROG}: cannot import koma ({_KOMA_IMPORT_ERROR}); set PYTHONPATH to "
              "<build>/python", file=sys.stderr)
        return 1
    if argv is None:
        argv = sys.argv[1:]
    try:
        return run(argv)
    except UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    except Failure as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    except koma.Error as e:
        print(f"{PROG}: {_koma_error(e)}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
