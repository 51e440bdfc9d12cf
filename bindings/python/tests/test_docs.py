"""The Python examples of docs/python.md run, and print what their comments say."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KOMA_SOURCE") or os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def blocks():
    with open(os.path.join(SOURCE, "docs", "python.md"), encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


def run(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_first_lines_run():
    run(blocks()[0])


def test_the_complete_example_prints_what_it_says():
    out = run(blocks()[1]).splitlines()
    # The commented results: the strong seats' node-limited searches and the
    # seeded easy seat make the game the same on every run.
    assert "Result(places=[4, 3, 2, 1], reason='last_seat_standing')" in out
    assert "[-1.0, -0.3333333333333333, 0.3333333333333333, 1.0]" in out
    assert "the piece on 5a belongs to seat 3, and seat 1 is to move" in out
    assert out[-1] == "241 checkmate [1.0, -1.0]"
    line = next(s for s in out if s.startswith('{"variant": "yonin"'))
    assert line.endswith('"result": {"places": [4, 3, 2, 1], "reason": "last_seat_standing"}}')
