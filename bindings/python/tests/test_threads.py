"""perft and Player.choose release the GIL; Player.stop ends a search from
another thread (docs/python.md, "Pickling, copies, threads")."""
import threading
import time

import koma


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
