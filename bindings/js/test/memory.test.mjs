// Node tests of the module's memory (docs/js.md#memory). WebAssembly memory
// never shrinks, so what is measured is whether memory freed is used again:
// the growth of the heap (koma.HEAP8's buffer) over rounds of allocating
// objects and dropping them. Between rounds the test collects garbage and
// yields, so that the finalizers embind registers run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const pkg = process.env.KOMA_PACKAGE ?? path.join(root, "build/wasm/package");
const createModule = createRequire(import.meta.url)(path.join(pkg, "koma.cjs"));
const koma = await createModule();

v8.setFlagsFromString("--expose-gc");
const gc = globalThis.gc ?? vm.runInNewContext("gc");
const MiB = 1 << 20;
const heap = () => koma.HEAP8.buffer.byteLength;

// Collects the garbage and lets the finalizers it queued run.
async function collect() {
  for (let i = 0; i < 3; ++i) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// The heap's growth in MiB over `rounds` calls of `round`, collecting after each.
async function growth(rounds, round) {
  await collect();
  const before = heap();
  for (let r = 0; r < rounds; ++r) {
    round(r);
    await collect();
  }
  return (heap() - before) / MiB;
}

// Issue 40: 10 000 dropped Games kept 48 MB.
test("dropped Games are freed: 10 000 in rounds of 1 000 reuse the same memory", async () => {
  const v = koma.loadVariant("shogi");
  const grew = await growth(10, () => {
    for (let i = 0; i < 1000; ++i) new koma.Game(v).play("7g7f");
  });
  assert.ok(grew <= 8, `the heap grew ${grew} MiB`);
  v.delete();
});

test("a variant loaded twice by the same name and options is parsed once and shared", async () => {
  const kept = [];
  const grew = await growth(1, () => {
    for (let i = 0; i < 100; ++i) kept.push(koma.loadVariant("shogi", { impasse: "none" }));
  });
  assert.ok(grew <= 1, `100 loads grew the heap ${grew} MiB`);
  // The same rules: a Player of one load plays a Game of another.
  const g = new koma.Game(kept[1]);
  const cpu = new koma.Player(kept[0], "easy");
  assert.ok(g.legalMoves().includes(cpu.choose(g)));
  // Other options are another variant.
  const other = koma.loadVariant("shogi");
  assert.throws(() => new koma.Player(other, "easy").choose(g), { message: /another variant/ });
  for (const o of [cpu, g, other, ...kept]) o.delete();
});

// Issue 40: 2 000 parsed Variants kept 803 MB.
test("dropped Variants are freed: 200 of other options in rounds of 20", async () => {
  const grew = await growth(10, (r) => {
    for (let i = 0; i < 20; ++i) koma.loadVariant("shogi", { max_plies: 1000 + 20 * r + i });
  });
  assert.ok(grew <= 24, `the heap grew ${grew} MiB`);
});

// Issue 40: an expert Player kept about 14 MiB after its first choose.
test("dropped Players are freed, and release() frees a kept one's search memory", async () => {
  const v = koma.loadVariant("shogi");
  const g = new koma.Game(v);
  const grew = await growth(6, () => {
    new koma.Player(v, "expert", { nodes: 200 }).choose(g);
  });
  assert.ok(grew <= 32, `6 expert Players grew the heap ${grew} MiB`);
  const kept = new koma.Player(v, "expert", { nodes: 200 });
  const first = kept.choose(g);
  kept.release();
  const after = await growth(1, () => {
    const next = new koma.Player(v, "expert", { nodes: 200 });
    next.choose(g);
    next.delete();
  });
  assert.ok(after <= 1, `another expert after release() grew the heap ${after} MiB`);
  // A released Player plays on, as it did (its memory allocated again).
  assert.equal(kept.choose(g), first);
  for (const o of [kept, g, v]) o.delete();
});
