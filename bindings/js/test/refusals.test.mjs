// Node tests of refused calls (docs/js.md#errors): a refusal throws the same
// Error as ever and leaves nothing behind: the WebAssembly stack pointer
// (emscripten's stackSave, exported for this) and the count of JavaScript
// values held for C++ (count_emval_handles) are what they were, after any
// number of refusals. They test the module itself, koma.cjs of the package:
// the koma.js that scripts/web.sh serves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const pkg = process.env.KOMA_PACKAGE ?? path.join(root, "build/wasm/package");
const createModule = createRequire(import.meta.url)(path.join(pkg, "koma.cjs"));
const koma = await createModule();

const shogi = koma.loadVariant("shogi");
const game = new koma.Game(shogi);
game.play("7g7f");
const finished = new koma.Game(shogi);
finished.play("resign");
const player = new koma.Player(shogi, "easy");

// Each kind of refusal: the call, and the Error it throws (name, message).
const refusals = [
  ["Game.play", () => game.play("zz"), "NotationError", /^'zz' is not a move/],
  ["Game.play of a number", () => game.play(42), "Error", /^the move must be a string, not number$/],
  ["Game.play of an illegal move", () => game.play("5e5d"), "IllegalMove", /^there is no piece on 5e$/],
  ["Game.movesFrom", () => game.movesFrom("zz"), "Error", /^'zz' is not a square of this board$/],
  ["Game.whyIllegal", () => game.whyIllegal("zz"), "NotationError", /^'zz' is not a move/],
  ["Game.undo at the start", () => new koma.Game(shogi).undo(), "IllegalMove", /./],
  ["new Game at a bad position", () => new koma.Game(shogi, "not a position"), "NotationError", /^SFEN has/],
  ["loadVariant of garbage", () => koma.loadVariant("garbage"), "Error", /^no variant named 'garbage'/],
  ["loadVariant of a bad descriptor", () => koma.loadVariant("koma: 1\nname: x\nboard: {width: 0}\n"),
   "DescriptorError", /^<yaml>:3:8: /],
  ["loadVariant with a bad option", () => koma.loadVariant("shogi", { impasse: "x" }), "DescriptorError", /impasse/],
  ["perft of a bad depth", () => koma.perft(shogi, -1), "Error", /^the depth must be a whole number/],
  ["readRecord('{')", () => koma.readRecord("{"), "RecordError", /\(<record>:1/],
  ["writeRecord({})", () => koma.writeRecord({}), "Error", /^record\.variant must be a string, not undefined$/],
  ["new Player of a bad level", () => new koma.Player(shogi, "grandmaster"), "Error", /^no CPU level 'grandmaster'/],
  ["new Player of bad limits", () => new koma.Player(shogi, "easy", { nodes: "many" }), "Error",
   /^nodes must be a number, not string$/],
  ["Player.choose on a finished game", () => player.choose(finished), "IllegalMove", /^the game is over$/],
];

test("every refusal throws its Error and leaves the stack and the handles as they were", () => {
  const position = game.position();
  for (const [what, call, name, message] of refusals) {
    const stack = koma.stackSave();
    const handles = koma.count_emval_handles();
    for (let i = 0; i < 500; ++i) assert.throws(call, (e) => e instanceof Error && e.name === name && message.test(e.message), what);
    assert.equal(koma.stackSave(), stack, `${what}: the stack pointer moved`);
    assert.equal(koma.count_emval_handles(), handles, `${what}: JavaScript values left held`);
  }
  assert.equal(game.position(), position);
  assert.deepEqual(game.history(), ["7g7f"]);
});

// A throw of the caller's own code while the module reads an argument (a
// getter, a Proxy's trap) reaches the caller as it was thrown, and leaves
// nothing behind either.
test("the caller's own exceptions pass through unchanged, leaving nothing behind", () => {
  const mine = new RangeError("mine");
  const getter = { get impasse() { throw mine; } };
  const trap = new Proxy({}, { ownKeys() { throw mine; } });
  const { proxy: revoked, revoke } = Proxy.revocable([], {});
  revoke();
  const calls = [
    () => koma.loadVariant("shogi", getter),
    () => koma.loadVariant("shogi", trap),
    () => new koma.Player(shogi, "easy", { get nodes() { throw mine; } }),
    () => koma.writeRecord({ variant: "shogi", seats: [], get moves() { throw mine; } }),
    () => koma.writeRecord({ variant: "shogi", seats: [], moves: new Proxy([], { get() { throw mine; } }) }),
  ];
  for (const call of calls) {
    const stack = koma.stackSave();
    const handles = koma.count_emval_handles();
    for (let i = 0; i < 500; ++i) assert.throws(call, (e) => e === mine);
    assert.equal(koma.stackSave(), stack);
    assert.equal(koma.count_emval_handles(), handles);
  }
  // A revoked Proxy: the TypeError of Array.isArray.
  assert.throws(() => koma.writeRecord({ variant: "shogi", seats: revoked, moves: [] }), TypeError);
  assert.equal(koma.writeRecord({ variant: "shogi", seats: [], moves: [] }).slice(0, 20), '{"variant": "shogi",');
});

// Issue 40's repro: the stack is 5 MiB, so with 16 bytes kept a refusal,
// about 327 700 refusals left every later call failing with "memory access
// out of bounds".
test("400 000 refused moves, then a new game still plays", () => {
  const g = new koma.Game(shogi);
  for (let i = 0; i < 400000; ++i) {
    try {
      g.play("zz");
    } catch (e) {
      if (e.name !== "NotationError") throw e;
    }
  }
  const fresh = new koma.Game(shogi);
  fresh.play("7g7f");
  assert.deepEqual(fresh.history(), ["7g7f"]);
  assert.deepEqual(g.history(), []);
  g.delete();
  fresh.delete();
});

test("the optional arguments of docs/js.md may be left out of the module's calls", () => {
  const v = koma.loadVariant("minishogi");
  assert.equal(v.name, "minishogi");
  assert.equal(koma.perft(v, 1), 14);
  assert.equal(koma.perft(v, 1, "rbsgk/4p/5/P4/KGSBR b - 1"), 14);
  assert.equal(koma.perft(v, 1, null), 14);
  const line = koma.writeRecord({ variant: "minishogi", seats: ["human", "human"], moves: ["5e4d", "1a2b"] });
  assert.deepEqual(koma.readRecord(line).moves, ["5e4d", "1a2b"]);
  assert.deepEqual(koma.readRecord(`${line}\n${line}\n`, 2).where, "<record>:2");
  assert.equal(koma.readRecord(line, null).where, "<record>:1");
  const g = new koma.Game(v);
  const cpu = new koma.Player(v, "easy");
  assert.ok(g.legalMoves().includes(cpu.choose(g)));
  // Too many arguments are still refused, by embind.
  assert.throws(() => koma.loadVariant("minishogi", {}, 1), /invalid number of arguments/);
  assert.throws(() => koma.perft(v, 1, null, 1), /invalid number of arguments/);
  for (const o of [cpu, g, v]) o.delete();
});

// Weak spot 7: embind turns a lone surrogate into another character (U+10000
// at the end of a string); the module refuses such strings, naming them.
test("strings that are not well-formed UTF-16 are refused, naming the argument", () => {
  const bad = "a\ud800";
  const lone = (what, at, unit = "D800") => `${what} is not well-formed UTF-16: a lone surrogate U+${unit} at index ${at}`;
  const cases = [
    [() => game.play(`7g7f${"\udc00"}`), lone("the move", 4, "DC00")],
    [() => game.whyIllegal(bad), lone("the move", 1)],
    [() => game.movesFrom(bad), lone("the square", 1)],
    [() => koma.loadVariant(bad), lone("the variant", 1)],
    [() => koma.loadVariant("shogi", { impasse: bad }), lone("options 'impasse'", 1)],
    [() => koma.loadVariant("shogi", { [bad]: "x" }), lone("a key of options", 1)],
    [() => new koma.Game(shogi, `\ud800${"x"}`), lone("the position", 0)],
    [() => koma.readRecord(`{"variant": "${bad}"}`), lone("the record", 14)],
    [() => new koma.Player(shogi, bad), lone("the level", 1)],
    [() => koma.writeRecord({ variant: bad, seats: [], moves: [] }), lone("record.variant", 1)],
    [() => koma.writeRecord({ variant: "shogi", seats: [], moves: ["7g7f", `\udfff${"\ud800"}`] }),
     lone("record.moves[1]", 0, "DFFF")],
    [() => koma.writeRecord({ variant: "shogi", seats: [], moves: [], [bad]: 1 }), lone("a key of the record", 1)],
  ];
  for (const [call, message] of cases) assert.throws(call, { name: "Error", message });
  // A pair (a character beyond U+FFFF) is well-formed: written and read back as it was.
  const line = koma.writeRecord({ variant: "\ud83c\udf38 x\u{1d11e}", seats: [], moves: [] });
  assert.ok(line.startsWith('{"variant": "\u{1f338} x\u{1d11e}", '));
  assert.equal(koma.readRecord(line).variant, "\u{1f338} x\u{1d11e}");
});

test("Player limits refuse an unknown key, naming it and the known ones", () => {
  const keys = "nodes, depth, seconds, seed";
  assert.throws(() => new koma.Player(shogi, "easy", { node: 1000 }),
                { name: "Error", message: `the limits object has an unknown key 'node'; its keys are ${keys}` });
  assert.throws(() => new koma.Player(shogi, "easy", { nodes: 1000, Seed: 1 }),
                { name: "Error", message: `the limits object has an unknown key 'Seed'; its keys are ${keys}` });
  assert.throws(() => new koma.Player(shogi, "easy", [1000]),
                { name: "Error", message: "the limits must be an object {nodes, depth, seconds, seed}, not array" });
  const p = new koma.Player(shogi, "easy", { nodes: 1000, depth: 1, seconds: 1, seed: 3 });
  assert.ok(game.legalMoves().includes(p.choose(game)));
  p.delete();
});
