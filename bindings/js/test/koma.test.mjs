// Node tests of the JavaScript API (docs/js.md), run by scripts/wasm.sh with
// `node --test`. KOMA_PACKAGE is the package folder (build/wasm/package);
// KOMA_PERFT the native koma-perft whose counts the module must equal
// (default: build/tests/koma-perft, then build/release/koma-perft).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const pkg = process.env.KOMA_PACKAGE ?? path.join(root, "build/wasm/package");
const { default: createKoma } = await import(path.join(pkg, "index.mjs"));
const koma = await createKoma();

function nativePerft() {
  const candidates = [process.env.KOMA_PERFT, path.join(root, "build/tests/koma-perft"),
                      path.join(root, "build/release/koma-perft")];
  const found = candidates.find((p) => p && existsSync(p));
  assert.ok(found, "no native koma-perft: build it (scripts/test.sh) or set KOMA_PERFT");
  return found;
}

test("start perft of every bundled variant equals the native counts", () => {
  const perft = nativePerft();
  const names = koma.variants();
  assert.equal(names.length, 22);
  for (const name of names) {
    const depth = name.startsWith("shipley") || name.startsWith("yonin") ? 3 : 2;
    const out = execFileSync(perft, ["--variant", path.join(root, "variants", `${name}.yaml`),
                                     "--depth", String(depth)], { encoding: "utf8" });
    const native = Number(out.trim().split("\n").pop().split(" ")[1]);
    const v = koma.loadVariant(name);
    assert.equal(koma.perft(v, depth), native, name);
    v.delete();
  }
});

test("a game: legal moves, play, undo, and what a board needs", () => {
  const v = koma.loadVariant("shogi", { impasse: "none" });
  assert.equal(v.width, 9);
  assert.equal(v.height, 9);
  assert.deepEqual(v.seats().map((s) => [s.seat, s.name, s.facing]),
                   [[1, "Sente", "up"], [2, "Gote", "down"]]);
  assert.equal(v.cells().length, 81);
  assert.equal(v.cells()[0], "9a");
  const g = new koma.Game(v);
  assert.equal(g.legalMoves().length, 30);
  assert.deepEqual(g.movesFrom("7g"), ["7g7f"]);
  assert.deepEqual(g.movesFrom("P*"), []);
  const start = g.position();
  assert.equal(start, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
  g.play("7g7f");
  g.play("3c3d");
  // A promotion choice: the same squares, promoting first.
  assert.deepEqual(g.movesFrom("8h").filter((m) => m.startsWith("8h2b")), ["8h2b+", "8h2b"]);
  g.play("8h2b+");
  assert.deepEqual(g.hands(), [{ B: 1 }, {}]);
  assert.equal(g.toMove(), 2);
  assert.equal(g.board().find((p) => p.name === "2b").letter, "+B");
  assert.ok(g.movesFrom("3a").includes("3a2b"));
  g.undo();
  g.undo();
  g.undo();
  assert.equal(g.position(), start);
  assert.equal(g.result(), null);
  g.delete();
  v.delete();
});

test("descriptor YAML text loads, extending a bundled descriptor", () => {
  const v = koma.loadVariant("koma: 1\nextends: shogi.yaml\nname: my-shogi\ndrops: {P: {mate: allowed}}\n");
  assert.equal(v.name, "my-shogi");
  assert.equal(koma.perft(v, 2), 900);
  v.delete();
});

test("Yonin from the start: nine moves, four seats, a result with places", () => {
  const v = koma.loadVariant("yonin", { pawn_drop_mate: "allowed" });
  assert.equal(v.options().pawn_drop_mate, "allowed");
  assert.deepEqual(v.turnOrder(), [1, 2, 3, 4]);
  assert.equal(koma.perft(v, 3), 729);
  const g = new koma.Game(v);
  assert.equal(g.legalMoves().length, 9);
  assert.equal(g.legalMoves()[0], "5g5f");
  assert.equal(g.toMove(), 1);
  g.play("resign");
  assert.deepEqual(g.eliminated(), [1]);
  assert.equal(g.toMove(), 2);
  g.play("resign");
  g.play("resign");
  assert.ok(g.over());
  assert.deepEqual(g.result(), { places: [4, 3, 2, 1], reason: "last_seat_standing" });
  g.delete();
  v.delete();
});

test("errors are Error objects with koma's messages; the game is unchanged", () => {
  const v = koma.loadVariant("shogi");
  const g = new koma.Game(v);
  const before = g.position();
  assert.throws(() => g.play("5e5d"), { name: "IllegalMove", message: "there is no piece on 5e" });
  assert.throws(() => g.play("zz"), { name: "NotationError" });
  assert.throws(() => g.undo(), { name: "IllegalMove" });
  assert.equal(g.position(), before);
  assert.throws(() => koma.loadVariant("koma: 1\nname: x\nboard: {width: 0}\n"),
                { name: "DescriptorError", message: /^<yaml>:3:8: / });
  assert.throws(() => koma.loadVariant("no-such-game"), { name: "Error", message: /no variant named 'no-such-game'/ });
  assert.throws(() => koma.loadVariant("shogi", { impasse: "x" }), { name: "DescriptorError" });
  assert.throws(() => new koma.Game(v, "not a position"), { name: "NotationError" });
  g.delete();
  v.delete();
});

test("wrong types are refused with an Error, never an abort of the module", () => {
  const v = koma.loadVariant("minishogi");
  const g = new koma.Game(v);
  for (const bad of [42, null, undefined, {}, [], true]) {
    assert.throws(() => koma.loadVariant(bad), Error);
    assert.throws(() => g.play(bad), Error);
    assert.throws(() => g.movesFrom(bad), Error);
  }
  assert.throws(() => koma.loadVariant("shogi", 7), Error);
  assert.throws(() => koma.loadVariant("shogi", { impasse: {} }), Error);
  assert.throws(() => new koma.Game(42), Error);
  assert.throws(() => koma.perft(v, -1), Error);
  assert.throws(() => koma.perft(v, "2"), Error);
  assert.throws(() => new koma.Player(v, "grandmaster"), Error);
  assert.throws(() => new koma.Player(v, "easy", { nodes: "many" }), Error);
  // Still working afterwards.
  assert.equal(koma.perft(v, 1), 14);
  assert.equal(g.legalMoves().length, 14);
  g.delete();
  v.delete();
});

test("a CPU player chooses a legal move, the same for the same seed", () => {
  const v = koma.loadVariant("yonin");
  const g = new koma.Game(v);
  const a = new koma.Player(v, "strong", { nodes: 2000, seed: 1 });
  const b = new koma.Player(v, "strong", { nodes: 2000, seed: 1 });
  const m = a.choose(g);
  assert.ok(g.legalMoves().includes(m));
  assert.equal(b.choose(g), m);
  assert.equal(g.history().length, 0);
  const other = koma.loadVariant("shogi");
  const og = new koma.Game(other);
  assert.throws(() => a.choose(og), { message: /another variant/ });
  for (const o of [a, b, g, v, og, other]) o.delete();
});

// The whole games of tests/data (an independent implementation's, as the C++
// test testdata_test.cpp replays them): every move legal, the same final
// position, the same places and reason.
test("the games of tests/data replay to the same positions and results", async () => {
  const { readFileSync } = await import("node:fs");
  const modes = {
    standard: ["yonin", {}],
    "standard-pdm-allowed": ["yonin", { pawn_drop_mate: "allowed" }],
    king_capture: ["yonin-king-capture", {}],
    inherit: ["yonin-inherit", {}],
    team_orthogonal: ["shipley-team-orthogonal", {}],
    team_diagonal: ["shipley-team-diagonal", {}],
    individual: ["shipley-individual", {}],
    kings: ["shipley-kings", {}],
  };
  let checked = 0;
  for (const file of ["yonin-games.jsonl", "shipley-games.jsonl"]) {
    const lines = readFileSync(path.join(root, "tests/data", file), "utf8").split("\n");
    for (const line of lines.filter((l) => l.trim())) {
      const r = JSON.parse(line);
      const mode = modes[r.mode];
      if (!mode) continue;
      const v = koma.loadVariant(mode[0], { ...mode[1], first_seat: r.first_seat });
      const g = new koma.Game(v);
      r.moves.forEach((m, i) => {
        assert.ok(!g.over(), `${file}: over before move ${i + 1}`);
        g.play(m);
      });
      assert.equal(g.position(), r.final_position, file);
      if (r.result.places === null) {
        assert.ok(!g.over());
      } else {
        assert.deepEqual(g.result(), { places: r.result.places, reason: r.result.reason }, file);
      }
      g.delete();
      v.delete();
      ++checked;
    }
  }
  assert.equal(checked, 24);
});

// The records the drivers' tests replay (tests/drivers/*.jsonl): read by the
// module, replayed through the API, the final position equal to koma-replay's.
test("game records read and replay to the position koma-replay gives", async () => {
  const { readFileSync } = await import("node:fs");
  const replay = path.join(path.dirname(nativePerft()), "koma-replay");
  const file = path.join(root, "tests/drivers/adjudicated.jsonl");
  const text = readFileSync(file, "utf8");
  const games = text.split("\n").filter((l) => l.trim()).length;
  assert.ok(games >= 2);
  for (let n = 1; n <= games; ++n) {
    const r = koma.readRecord(text, n);
    assert.equal(r.where, `<record>:${n}`);
    const options = { ...r.options };
    if (r.firstSeat !== null) options.first_seat = r.firstSeat;
    const v = koma.loadVariant(r.variant, options);
    const g = r.start === null ? new koma.Game(v) : new koma.Game(v, r.start);
    for (const m of r.moves) g.play(m);
    const out = execFileSync(replay, ["--variant", path.join(root, r.descriptor), "--record", file,
                                      "--game", String(n)], { encoding: "utf8", cwd: root });
    const position = out.split("\n").find((l) => l.startsWith("position ")).slice("position ".length);
    assert.equal(g.position(), position, `game ${n}`);
    g.delete();
    v.delete();
  }
  assert.throws(() => koma.readRecord(text, games + 1), { name: "RecordError", message: /there is no game/ });
  assert.throws(() => koma.readRecord("not json\n"), { name: "RecordError" });
});
