// Node tests of the JavaScript API (docs/js.md), run by scripts/wasm.sh with
// `node --test`. KOMA_PACKAGE is the package folder (build/wasm/package);
// KOMA_PERFT the native koma-perft whose counts the module must equal
// (default: build/tests/koma-perft, then build/release/koma-perft).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

// The shipped-variant table: one row a descriptor of variants/, with the
// depth this test counts to (tests/data/README.md).
const shipped = readFileSync(path.join(root, "tests/data/variants.jsonl"), "utf8")
  .split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));

test("start perft of every bundled variant equals the native counts", () => {
  const perft = nativePerft();
  const names = koma.variants();
  assert.deepEqual([...names].sort(), shipped.map((row) => row.variant).sort());
  for (const name of names) {
    const depth = shipped.find((row) => row.variant === name).depth.js;
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
  // Each mode of the data: its descriptor and options (the table's modes).
  const modes = Object.fromEntries(shipped.flatMap((row) =>
    Object.entries(row.modes ?? {}).map(([mode, options]) => [mode, [row.variant, options]])));
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

// A record line as docs/notation.md#game-records lays it out, built here
// independently of koma: the table's keys in its order, ", " and ": " between,
// absent values null, options by name (byte order; koma keeps them in a
// std::map), strings JSON-escaped as record.hpp's json_string says (which, unlike
// JSON.stringify, escapes DEL too).
function specLine(r) {
  const s = (text) => JSON.stringify(text).replaceAll("\x7f", "\\u007f");
  const list = (items) => `[${items.map(s).join(", ")}]`;
  const options = Object.keys(r.options).sort()
    .map((name) => `${s(name)}: ${s(String(r.options[name]))}`).join(", ");
  const result = r.result === null ? "null"
    : `{"places": [${r.result.places.join(", ")}], "reason": ${s(r.result.reason)}}`;
  return `{"variant": ${s(r.variant)}, "descriptor": ${s(r.descriptor)}, "options": {${options}}, ` +
    `"first_seat": ${r.firstSeat ?? "null"}, "start": ${r.start === null ? "null" : s(r.start)}, ` +
    `"seats": ${list(r.seats)}, "moves": ${list(r.moves)}, "result": ${result}}`;
}

function withoutWhere(r) {
  const { where, ...rest } = r;
  return rest;
}

// Every line of tests/data (other programs' JSON, with keys of their own: the
// reader takes the record keys it knows, and reason words koma does not know
// read as "none"): written, it is the spec's line and reads back as the same
// record.
test("writeRecord: every record of tests/data is written as the format says and reads back", async () => {
  const { readFileSync, readdirSync } = await import("node:fs");
  // variants.jsonl is koma's table of its shipped variants, not records.
  const files = readdirSync(path.join(root, "tests/data"))
    .filter((f) => f.endsWith(".jsonl") && f !== "variants.jsonl");
  assert.equal(files.length, 9);
  let written = 0;
  for (const file of files) {
    const lines = readFileSync(path.join(root, "tests/data", file), "utf8").split("\n");
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      const where = `${file}:${i + 1}`;
      const r = koma.readRecord(line);
      const out = koma.writeRecord(r);
      assert.equal(out, specLine(r), where);
      const back = koma.readRecord(out);
      assert.equal(back.where, "<record>:1");
      assert.deepEqual(withoutWhere(back), withoutWhere(r), where);
      assert.equal(koma.writeRecord(back), out, where);
      ++written;
    }
  }
  assert.equal(written, 777);  // 213 + 8 + 24 + 22 + 12 + 100 + 342 + 16 + 40 lines, none refused
});

test("writeRecord: lines koma wrote are written back byte for byte", async () => {
  const { readFileSync } = await import("node:fs");
  const lines = ["tests/drivers/adjudicated.jsonl", "tests/fuzz/corpus/record/docs"]
    .flatMap((f) => readFileSync(path.join(root, f), "utf8").split("\n").filter((l) => l.trim()));
  assert.equal(lines.length, 4);
  for (const line of lines) assert.equal(koma.writeRecord(koma.readRecord(line)), line);
});

test("writeRecord: keys in the table's order, strings escaped, absent values null", () => {
  const record = {
    variant: "tab\there \"q\" back\\slash nl\n cr\r del\x7f bell\x07 nul\0 歩",
    descriptor: "variants/shogi.yaml",
    options: { max_plies: 300, impasse: "none", flag: true },
    firstSeat: 2,
    start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    seats: ["human", "strong"],
    moves: ["3c3d", "7g7f", "resign"],
    result: { places: [1, 2], reason: "resignation" },
    where: "ignored.jsonl:7",
  };
  const line = koma.writeRecord(record);
  assert.equal(line, String.raw`{"variant": "tab\there \"q\" back\\slash nl\n cr\r del\u007f bell\u0007 nul\u0000 歩", ` +
    String.raw`"descriptor": "variants/shogi.yaml", "options": {"flag": "true", "impasse": "none", "max_plies": "300"}, ` +
    String.raw`"first_seat": 2, "start": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", ` +
    String.raw`"seats": ["human", "strong"], "moves": ["3c3d", "7g7f", "resign"], ` +
    String.raw`"result": {"places": [1, 2], "reason": "resignation"}}`);
  // Read back: the same texts, options as strings.
  assert.deepEqual(koma.readRecord(line), {
    ...record, options: { flag: "true", impasse: "none", max_plies: "300" }, where: "<record>:1",
  });
  // Only variant, seats and moves are required; missing and null are absent.
  const bare = '{"variant": "shogi", "descriptor": "", "options": {}, "first_seat": null, ' +
               '"start": null, "seats": [], "moves": [], "result": null}';
  assert.equal(koma.writeRecord({ variant: "shogi", seats: [], moves: [] }), bare);
  assert.equal(koma.writeRecord({ variant: "shogi", descriptor: null, options: null, firstSeat: null,
                                  start: null, seats: [], moves: [], result: null }), bare);
  // Reason words as Game.result() and readRecord name them: "try" (Reason::try_rule),
  // "none" (what an unknown word reads as); places as competition ranks, any int.
  const ended = (places, reason) =>
    koma.writeRecord({ variant: "dobutsu", seats: ["human", "human"], moves: [], result: { places, reason } });
  assert.ok(ended([2, 1], "try").endsWith('"result": {"places": [2, 1], "reason": "try"}}'));
  assert.ok(ended([], "none").endsWith('"result": {"places": [], "reason": "none"}}'));
  assert.ok(ended([1, 1, 3, -4], "last_team_standing")
    .endsWith('"result": {"places": [1, 1, 3, -4], "reason": "last_team_standing"}}'));
});

// The record of a game played here, written, read back and replayed (by the
// module and by the native koma-replay) to the same position and result.
test("writeRecord: a game played through the API replays from its record", async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const replay = path.join(path.dirname(nativePerft()), "koma-replay");
  const dir = mkdtempSync(path.join(tmpdir(), "koma-record-"));
  const nativeReplay = (line, descriptor) => {
    const file = path.join(dir, "game.jsonl");
    writeFileSync(file, line + "\n");
    const out = execFileSync(replay, ["--variant", path.join(root, descriptor), "--record", file],
                             { encoding: "utf8" }).split("\n");
    const field = (key) => out.find((l) => l.startsWith(key + " "))?.slice(key.length + 1) ?? null;
    return { position: field("position"), result: field("result") };
  };
  const replayed = (line) => {
    const r = koma.readRecord(line);
    const options = { ...r.options };
    if (r.firstSeat !== null) options.first_seat = r.firstSeat;
    const v = koma.loadVariant(r.variant, options);
    const g = r.start === null ? new koma.Game(v) : new koma.Game(v, r.start);
    for (const m of r.moves) g.play(m);
    const out = { position: g.position(), result: g.result(), record: r };
    g.delete();
    v.delete();
    return out;
  };
  try {
    // Yonin, seat 3 first, CPU moves, then three resignations.
    const v = koma.loadVariant("yonin", { pawn_drop_mate: "allowed", first_seat: 3 });
    const g = new koma.Game(v);
    const cpu = new koma.Player(v, "easy", { nodes: 300, seed: 5 });
    for (let i = 0; i < 8; ++i) g.play(cpu.choose(g));
    for (let i = 0; i < 3; ++i) g.play("resign");
    const result = g.result();
    assert.equal(result.reason, "last_seat_standing");
    const seats = ["easy", "easy", "easy", "easy"];
    const line = koma.writeRecord({
      variant: v.name, descriptor: "variants/yonin.yaml", options: { pawn_drop_mate: "allowed" },
      firstSeat: 3, seats, moves: g.history(), result,
    });
    assert.equal(line, specLine({ variant: "yonin", descriptor: "variants/yonin.yaml",
                                  options: { pawn_drop_mate: "allowed" }, firstSeat: 3, start: null,
                                  seats, moves: g.history(), result }));
    const again = replayed(line);
    assert.deepEqual(again.record.moves, g.history());
    assert.equal(again.record.moves.length, 11);
    assert.equal(again.position, g.position());
    assert.deepEqual(again.result, result);
    assert.deepEqual(again.record.result, result);
    assert.deepEqual(nativeReplay(line, "variants/yonin.yaml"),
                     { position: g.position(), result: `${result.places.join(" ")} last_seat_standing` });
    for (const o of [cpu, g, v]) o.delete();

    // Shogi from a start position: a gold drop mates (the record of notation.md's example).
    const shogi = koma.loadVariant("shogi");
    const start = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    const mate = new koma.Game(shogi, start);
    mate.play("G*5b");
    assert.deepEqual(mate.result(), { places: [1, 2], reason: "checkmate" });
    const mateLine = koma.writeRecord({ variant: shogi.name, descriptor: "variants/shogi.yaml",
                                        start, seats: ["human", "easy"], moves: mate.history(),
                                        result: mate.result() });
    assert.equal(mateLine, '{"variant": "shogi", "descriptor": "variants/shogi.yaml", "options": {}, ' +
      '"first_seat": null, "start": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "seats": ["human", "easy"], ' +
      '"moves": ["G*5b"], "result": {"places": [1, 2], "reason": "checkmate"}}');
    const mated = replayed(mateLine);
    assert.equal(mated.position, mate.position());
    assert.deepEqual(mated.result, { places: [1, 2], reason: "checkmate" });
    assert.deepEqual(nativeReplay(mateLine, "variants/shogi.yaml"),
                     { position: mate.position(), result: "1 2 checkmate" });

    // An unfinished game: result() is null, written null, read back null.
    const open = new koma.Game(shogi);
    open.play("7g7f");
    open.play("3c3d");
    const openLine = koma.writeRecord({ variant: "shogi", seats: ["human", "human"],
                                        moves: open.history(), result: open.result() });
    assert.ok(openLine.endsWith('"moves": ["7g7f", "3c3d"], "result": null}'));
    const unfinished = replayed(openLine);
    assert.equal(unfinished.position, open.position());
    assert.equal(unfinished.result, null);
    assert.equal(unfinished.record.result, null);
    for (const o of [mate, open, shogi]) o.delete();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("writeRecord: a wrong key throws an Error naming it; the module keeps working", () => {
  const good = { variant: "shogi", seats: ["human", "easy"], moves: ["7g7f"],
                 result: { places: [1, 2], reason: "resignation" } };
  const goodLine = '{"variant": "shogi", "descriptor": "", "options": {}, "first_seat": null, ' +
                   '"start": null, "seats": ["human", "easy"], "moves": ["7g7f"], ' +
                   '"result": {"places": [1, 2], "reason": "resignation"}}';
  const reasons = "none, checkmate, no_legal_move, last_seat_standing, two_mates, team_checkmate, " +
                  "all_kings, repetition, perpetual_check, impasse, declaration, try, max_plies, " +
                  "resignation, no_seat_can_move, adjudicated, checks, last_team_standing, drop_mate, " +
                  "bare_king, lone_royals";
  const whole = "must be a whole number from -2147483648 to 2147483647";
  const cases = [
    [undefined, "the record must be an object, not undefined"],
    [null, "the record must be an object, not null"],
    [[], "the record must be an object, not array"],
    ["{}", "the record must be an object, not string"],
    [{ ...good, first_seat: 1 }, "the record has an unknown key 'first_seat'; its keys are " +
                                 "variant, descriptor, options, firstSeat, start, seats, moves, result, where"],
    [{ ...good, variant: undefined }, "record.variant must be a string, not undefined"],
    [{ ...good, descriptor: false }, "record.descriptor must be a string, not boolean"],
    [{ ...good, options: [] }, "record.options must be an object of name: value"],
    [{ ...good, options: { impasse: {} } },
     "record.options 'impasse' must be a string, number or boolean, not object"],
    [{ ...good, firstSeat: "1" }, "record.firstSeat must be a number, not string"],
    [{ ...good, firstSeat: 1.5 }, `record.firstSeat ${whole}`],
    [{ ...good, firstSeat: 2 ** 31 }, `record.firstSeat ${whole}`],
    [{ ...good, start: 5 }, "record.start must be a string, not number"],
    [{ ...good, seats: "human" }, "record.seats must be an array of strings, not string"],
    [{ ...good, seats: undefined }, "record.seats must be an array of strings, not undefined"],
    [{ ...good, seats: ["human", 3] }, "record.seats[1] must be a string, not number"],
    [{ ...good, moves: ["7g7f", null] }, "record.moves[1] must be a string, not null"],
    [{ ...good, moves: [["7g7f"]] }, "record.moves[0] must be a string, not array"],
    [{ ...good, result: "checkmate" },
     "record.result must be null or an object {places, reason}, not string"],
    [{ ...good, result: [1, 2] }, "record.result must be null or an object {places, reason}, not array"],
    [{ ...good, result: { places: [1, 2], reason: "resignation", why: "" } },
     "record.result has an unknown key 'why'; its keys are places, reason"],
    [{ ...good, result: { reason: "resignation" } },
     "record.result.places must be an array of whole numbers, not undefined"],
    [{ ...good, result: { places: "1 2", reason: "resignation" } },
     "record.result.places must be an array of whole numbers, not string"],
    [{ ...good, result: { places: [1, "2"], reason: "resignation" } },
     "record.result.places[1] must be a number, not string"],
    [{ ...good, result: { places: [1, 2.5], reason: "resignation" } }, `record.result.places[1] ${whole}`],
    [{ ...good, result: { places: [1, 2] } }, "record.result.reason must be a string, not undefined"],
    [{ ...good, result: { places: [1, 2], reason: "mate" } },
     `record.result.reason 'mate' is not a reason word: ${reasons}`],
    [{ ...good, result: { places: [1, 2], reason: "try_rule" } },
     `record.result.reason 'try_rule' is not a reason word: ${reasons}`],
  ];
  for (const [bad, message] of cases) {
    assert.throws(() => koma.writeRecord(bad), (e) => {
      assert.ok(e instanceof Error);
      assert.equal(e.name, "Error");
      assert.equal(e.message, message);
      return true;
    });
  }
  // Still working afterwards.
  assert.equal(koma.writeRecord(good), goodLine);
  assert.deepEqual(withoutWhere(koma.readRecord(goodLine)),
                   { ...good, descriptor: "", options: {}, firstSeat: null, start: null });
  const v = koma.loadVariant("minishogi");
  assert.equal(koma.perft(v, 1), 14);
  v.delete();
});
