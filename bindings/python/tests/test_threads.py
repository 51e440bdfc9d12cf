"""perft and Player.choose release the GIL; Player.stop ends a search from
another thread (docs/python.md, "Pickling, copies, threads")."""
import threading
import time

import pytest

import koma
from conftest import fresh_python


def run_beside(work):
    """Runs `work` in a thread while this thread counts; returns the
    work's (start, end, value) and the times at which the count went on."""
    out = {}
    started = threading.Event()

    def body():
        out["start"] = time.perf_counter()
        started.set()
        out["value"] = work()
        out["end"] = time.perf_counter()

    thread = threading.Thread(target=body)
    stamps = []
    n = 0
    thread.start()
    started.wait()
    while thread.is_alive():
        n += 1
        if n % 200 == 0:
            stamps.append(time.perf_counter())
    thread.join()
    return out["start"], out["end"], out["value"], stamps


def test_perft_lets_other_threads_run():
    v = koma.Variant.load("shogi", impasse="none")
    start, end, count, stamps = run_beside(lambda: koma.perft(v, 5))
    assert count == 19861490
    duration = end - start
    assert duration > 0.1
    # The counting thread went on in the middle of the perft, not only before
    # the worker took the GIL and after it gave it back.
    middle = [s for s in stamps if start + duration / 4 < s < end - duration / 4]
    assert len(middle) >= 20, (len(stamps), duration)


def test_perft_divide_lets_other_threads_run():
    v = koma.Variant.load("shogi", impasse="none")
    start, end, divide, stamps = run_beside(lambda: koma.perft_divide(v, 5))
    assert sum(divide.values()) == 19861490
    duration = end - start
    middle = [s for s in stamps if start + duration / 4 < s < end - duration / 4]
    assert len(middle) >= 20, (len(stamps), duration)


def test_stop_makes_a_long_choose_return():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    g.play("7g7f")
    player = koma.Player(v, "expert", seconds=30)
    out = {}

    def work():
        t0 = time.perf_counter()
        out["move"] = player.choose(g)
        out["seconds"] = time.perf_counter() - t0

    thread = threading.Thread(target=work)
    thread.start()
    # The search runs without the GIL: this thread counts meanwhile.
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.5:
        n += 1
    assert n > 1000
    assert thread.is_alive()
    player.stop()
    thread.join(10)
    assert not thread.is_alive(), "choose went on after stop()"
    assert out["seconds"] < 5
    move = out["move"]
    assert g.is_legal(move)
    assert move.text and str(move) in {str(m) for m in g.legal_moves()}
    assert g.history == ["7g7f"]


def test_one_variant_from_many_threads():
    v = koma.Variant.load("yonin")
    results = {}

    def work(i):
        g = koma.Game(v)
        g.play(g.legal_moves()[i])
        results[i] = koma.perft(g, 4)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(4):
        g = koma.Game(v)
        g.play(g.legal_moves()[i])
        assert results[i] == koma.perft(g, 4)
    divide = koma.perft_divide(v, 5)
    moves = koma.Game(v).legal_moves()
    assert [divide[str(moves[i])] for i in range(4)] == [results[i] for i in range(4)]


# Four threads, each with its own game, make the process's first numpy arrays
# at once: two observations, two legal-action masks. numpy's C API was set up
# on the first use, under a lock that one thread held while the numpy import
# gave the GIL to another, which then waited for that lock holding the GIL.
FIRST_NUMPY_USE = """
import threading
import koma

v = koma.Variant.load("shogi")
games = [koma.Game(v) for _ in range(4)]
start = threading.Barrier(4)
shapes = {}

def work(i):
    start.wait()
    array = games[i].observation() if i % 2 == 0 else games[i].legal_actions_mask()
    shapes[i] = array.shape

threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(shapes.items()))
"""


@pytest.mark.parametrize("attempt", range(3))
def test_the_first_numpy_use_from_threads_at_once_does_not_hang(attempt):
    # A fresh interpreter each time: the hang only shows on the first use.
    out = fresh_python(FIRST_NUMPY_USE, timeout=30)
    assert out.returncode == 0, out.stderr
    v = koma.Variant.load("shogi")
    expected = [(0, v.observation_shape), (1, (v.num_actions,)), (2, v.observation_shape),
                (3, (v.num_actions,))]
    assert out.stdout.strip() == str(expected)


# Player.stop(): every stop() made before a choose() returns is that choose()'s
# (docs/python.md, "Player"). One sent before the other thread's choose() had
# started was lost in 16 of 20 tries: the search then ran its whole limit.

def test_a_stop_before_the_other_threads_choose_starts_ends_it():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    player = koma.Player(v, "expert", seconds=600)  # only a stop ends it in time
    for attempt in range(20):
        out = {}
        thread = threading.Thread(target=lambda: out.setdefault("move", player.choose(g)),
                                  daemon=True)  # a lost stop must not keep pytest waiting
        thread.start()
        player.stop()  # most often before choose() has started
        thread.join(60)
        assert not thread.is_alive(), f"attempt {attempt}: the stop was lost"
        assert g.is_legal(out["move"])
        assert player.info["stopped"] is True


def test_a_stop_before_choose_ends_that_choose_only_unsearched():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    player = koma.Player(v, "hard", nodes=3000)
    player.stop()
    player.stop()  # stops do not add up
    assert player.choose(g) == g.legal_moves()[0]
    assert player.info == {"depth": 0, "nodes": 0, "seconds": player.info["seconds"], "score": 0,
                           "stopped": True}
    # Consumed by that choose(): the next one searches.
    assert g.is_legal(player.choose(g))
    assert player.info["stopped"] is False and player.info["nodes"] > 0
    # cancel_stop() withdraws a stop no choose() has taken.
    player.stop()
    player.cancel_stop()
    assert g.is_legal(player.choose(g))
    assert player.info["stopped"] is False and player.info["nodes"] > 0


def test_info_read_while_choose_runs_is_the_choose_before():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    player = koma.Player(v, "expert", seconds=600)
    before = player.info
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("move", player.choose(g)),
                              daemon=True)
    thread.start()
    time.sleep(0.2)
    reads = [player.info for _ in range(200)]
    player.stop()
    thread.join(60)
    assert not thread.is_alive()
    assert all(info == before for info in reads)
    assert player.info["stopped"] is True and g.is_legal(out["move"])
