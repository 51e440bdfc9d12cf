"""examples/python/selfplay.py: the same records for any --jobs and on a Dask
cluster, the same records as koma-match, and records koma-replay and
koma.Game.from_record replay to their results.

Drivers come from KOMA_MATCH and KOMA_REPLAY (ctest sets them); a test that
needs an unset one is skipped. The Dask test needs the package `distributed`.
"""
import functools
import importlib.util
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import koma
from conftest import driver, koma_path

HERE = Path(__file__).resolve().parent
SOURCE = Path(os.environ.get("KOMA_SOURCE") or HERE.parents[2])
SELFPLAY = SOURCE / "examples" / "python" / "selfplay.py"
TIMEOUT = 120

# Small matches, run with the source tree as the working directory. Between
# them: two and four seats, --option, --rotate-first, --first-seat,
# --level-nodes, --nodes, the expert's default node limit, a descriptor given
# as a relative path, games adjudicated at the ply cap and games that end by
# the rules.
CASES = {
    "shogi": ["--variant", "shogi", "--seats", "easy,normal", "--games", "4", "--seed", "7",
              "--max-plies", "50", "--nodes", "300"],
    "yonin": ["--variant", "yonin", "--seats", "easy,normal,easy,normal", "--games", "4",
              "--seed", "3", "--max-plies", "80", "--option", "pawn_drop_mate=allowed",
              "--rotate-first"],
    "minishogi": ["--variant", "variants/minishogi.yaml", "--seats", "easy,medium", "--games",
                  "3", "--first-seat", "2", "--level-nodes", "medium=200", "--seed", "11"],
    "expert": ["--variant", "minishogi", "--seats", "expert,easy", "--games", "2",
               "--max-plies", "24"],
}


def run(command, **kwargs):
    env = dict(os.environ, PYTHONPATH=koma_path())
    return subprocess.run(command, cwd=SOURCE, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, **kwargs)


def selfplay(args, record=None):
    """Runs selfplay.py; returns its records (bytes) and its standard error."""
    command = [sys.executable, str(SELFPLAY)] + args
    if record is not None:
        command += ["--record", str(record)]
    out = run(command)
    assert out.returncode == 0, out.stderr
    return (Path(record).read_bytes() if record else out.stdout.encode()), out.stderr


def records_of(data):
    return [line for line in data.decode().split("\n") if line]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Each case played by selfplay.py --jobs 1: case -> (path, bytes)."""
    folder = tmp_path_factory.mktemp("selfplay")
    out = {}
    for name, args in CASES.items():
        path = folder / f"{name}.jsonl"
        data, err = selfplay(args + ["--jobs", "1"], path)
        out[name] = (path, data)
    return out


@pytest.mark.parametrize("case", CASES)
def test_records_hold_every_game(played, case):
    path, data = played[case]
    lines = records_of(data)
    assert data.endswith(b"\n")
    assert len(lines) == int(CASES[case][CASES[case].index("--games") + 1])
    for g, line in enumerate(lines, 1):
        record = koma.read_record(str(path), g)
        assert record.line() == line
        assert record.result is not None


@pytest.mark.parametrize("case", CASES)
def test_jobs_do_not_change_the_records(played, case, tmp_path):
    data, err = selfplay(CASES[case] + ["--jobs", "2"], tmp_path / "jobs2.jsonl")
    assert data == played[case][1]
    assert "games" in err and "games/s" in err


def test_records_go_to_standard_output_without_record(played):
    data, err = selfplay(CASES["shogi"])
    assert data == played["shogi"][1]


@pytest.mark.parametrize("case", CASES)
def test_koma_match_writes_the_same_records(played, case, tmp_path):
    match = driver("KOMA_MATCH")
    path = tmp_path / "match.jsonl"
    out = run([match] + CASES[case] + ["--record", str(path)])
    assert out.returncode == 0, out.stderr
    assert path.read_bytes() == played[case][1]


def test_both_endings_are_covered(played):
    reasons = {koma.read_record_text(line).result.reason
               for _, data in played.values() for line in records_of(data)}
    assert "adjudicated" in reasons
    assert reasons - {"adjudicated"}, reasons


@pytest.mark.parametrize("case", CASES)
def test_records_replay_in_python(played, case):
    path, data = played[case]
    for g, line in enumerate(records_of(data), 1):
        record = koma.read_record(str(path), g)
        game = koma.Game.from_record(record)
        assert game.over
        assert game.result == record.result
        moves = game.history
        if moves and moves[-1] == "adjudicate":
            moves.pop()
        assert moves == record.moves


@pytest.mark.parametrize("case", CASES)
def test_records_replay_with_koma_replay(played, case):
    replay = driver("KOMA_REPLAY")
    path, data = played[case]
    for g, line in enumerate(records_of(data), 1):
        record = koma.read_record_text(line)
        out = run([replay, "--variant", record.descriptor, "--record", str(path),
                   "--game", str(g)])
        assert out.returncode == 0, out.stderr
        result = [row for row in out.stdout.splitlines() if row.startswith("result ")]
        expected = " ".join(["result"] + [str(p) for p in record.result.places] +
                            [record.result.reason])
        assert result == [expected], out.stdout


def load_selfplay():
    spec = importlib.util.spec_from_file_location("selfplay_example", SELFPLAY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_play_game_is_a_picklable_function_of_plain_arguments(played):
    module = load_selfplay()
    common = dict(variant="shogi", options={}, descriptor="shogi", overrides={},
                  levels=["easy", "normal"], seed=7, nodes=300, cap=50)
    work = functools.partial(module.play_game, **common)
    assert pickle.loads(pickle.dumps(common)) == common
    lines = records_of(played["shogi"][1])
    assert work(0) == lines[0]
    assert work(3) == lines[3]


@pytest.mark.parametrize("args, message", [
    (["--variant", "shogi", "--seats", "easy", "--games", "1"],
     "--seats lists 1 level, but shogi has 2 seats"),
    (["--variant", "shogi", "--seats", "easy,human", "--games", "1"],
     "human cannot play in a match"),
    (["--variant", "shogi", "--seats", "easy,easy", "--games", "0"],
     "--games takes a whole number from 1 to 1000000, not '0'"),
    (["--variant", "shogi", "--seats", "easy,easy"], "--games N is required"),
    (["--variant", "shogi", "--seats", "easy,easy", "--games", "1", "--option", "bogus=1"],
     "unknown option 'bogus'"),
    (["--variant", "shogi", "--seats", "easy,easy", "--games", "1", "--opening-plies", "2"],
     "--opening-plies is not supported"),
    (["--variant", "shogi", "--seats", "easy,easy", "--games", "1", "--rotate-first",
      "--first-seat", "1"], "--rotate-first and --first-seat exclude each other"),
])
def test_bad_arguments_exit_2_with_one_line(args, message):
    out = run([sys.executable, str(SELFPLAY)] + args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.startswith("selfplay.py: ") and message in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1


# Numbers as koma-match reads them (Boost's lexical_cast): ASCII digits with
# an optional sign, within the C++ type, then the option's range. Python's int()
# took '1_000', other scripts' digits ('١٠') and blanks (' 1'), which
# koma-match refuses.
NUMBERS = ["1_000", "\u0661\u0660", " 1", "1 ", "", "+2", "-0", "0009", "1e3", "1.0", "0x10",
           "inf", "nan", "2147483648", "99999999999999999999", "1000001", "-1", "2"]
SECONDS = ["1_0", "\u0661", " 1", "", ".5", "5.", "+.5", "1E-2", "1e", "e3", "INF", "-inf",
           "Infinity", "NaN", "nan(1)", "1e400", "1e-400", "1,5", ".", "86400.5", "-0", "0x1"]
LEVEL_NODES = ["easy= 1", "easy=+1", "easy=-0", "easy=1 ", "easy=1_0", "easy=\u0661",
               "easy=", "easy=1e3", "easy=-1", "hard=5", "nobody=5", "easy"]
BASE = {"--variant": "minishogi", "--seats": "easy,easy", "--games": "1", "--max-plies": "1"}


def verdicts(option, value):
    """koma-match's and selfplay.py's error (None if they accept) for one value."""
    args = dict(BASE, **{option: value})
    argv = [item for pair in args.items() for item in pair]
    out = subprocess.run([driver("KOMA_MATCH")] + argv, capture_output=True, text=True,
                         timeout=TIMEOUT)
    match = None
    if out.returncode != 0:
        line = out.stderr.strip()
        assert line.startswith("koma-match: ") and "\n" not in line, out.stderr
        match = re.sub(r" \([^()]*\)$", "", line[len("koma-match: "):])  # its (where)
    module = load_selfplay()
    try:
        module.setup(argv)
        ours = None
    except module.UsageError as e:
        ours = str(e)
    return match, ours


@pytest.mark.parametrize("option", ["--games", "--seed", "--jobs", "--max-plies", "--nodes",
                                    "--first-seat"])
@pytest.mark.parametrize("value", NUMBERS)
def test_whole_numbers_are_read_as_koma_match_reads_them(option, value):
    match, ours = verdicts(option, value)
    assert ours == match


@pytest.mark.parametrize("value", SECONDS)
def test_seconds_are_read_as_koma_match_reads_them(value):
    match, ours = verdicts("--seconds", value)
    if match and match.startswith("--seconds takes"):
        # koma-match shows the value as it read it (%g); selfplay.py as given.
        assert ours == f"--seconds takes a number from 0 to 86400, not '{value}'", (match, ours)
    else:
        assert ours == match


@pytest.mark.parametrize("value", LEVEL_NODES)
def test_level_nodes_are_read_as_koma_match_reads_them(value):
    # koma-match's message also offers --usi engine names, which selfplay.py has not.
    match, ours = verdicts("--level-nodes", value)
    assert (ours is None) == (match is None), (match, ours)
    if ours:
        assert ours == f"'{value}' is not LEVEL=N (a level name, a node count from 0 to " \
            "1000000000000)"


def test_help():
    out = run([sys.executable, str(SELFPLAY), "--help"])
    assert out.returncode == 0
    assert "--scheduler" in out.stdout and "--opening-plies" in out.stdout


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of two single-threaded worker processes."""
    distributed = pytest.importorskip("distributed", reason="Dask's distributed is not installed")
    # The workers are new processes: they find koma through PYTHONPATH.
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = koma_path()
    try:
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                           processes=True, dashboard_address=None)
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # tornado's, in Debian's Dask
@pytest.mark.parametrize("case", ["yonin", "minishogi"])
def test_a_dask_cluster_plays_the_same_records(played, cluster, case, tmp_path):
    data, err = selfplay(CASES[case] + ["--scheduler", cluster.scheduler_address],
                         tmp_path / "dask.jsonl")
    assert data == played[case][1]
