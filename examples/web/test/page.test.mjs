// Browser tests of the koma web page (examples/web), run by
// scripts/browser-test.sh: Debian's chromium, headless, driven by
// puppeteer-core. PAGE_URL is the served page, CHROMIUM the browser.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";

const url = process.env.PAGE_URL ?? "http://127.0.0.1:8000/";
let browser;

before(async () => {
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox"],
  });
});
after(async () => browser?.close());

// A fresh page (empty localStorage unless `keep`, or `raw`: the saved text
// itself) with its console errors.
async function open(setup, { width = 1000, keep = null, raw = null } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewport({ width, height: 900 });
  await page.goto(url, { waitUntil: "networkidle0" });
  await page.evaluate((saved, text) => {
    localStorage.clear();
    if (saved) localStorage.setItem("koma-game", JSON.stringify(saved));
    if (text !== null) localStorage.setItem("koma-game", text);
  }, setup ?? keep, raw);
  await page.reload({ waitUntil: "networkidle0" });
  await page.waitForSelector("#board g.cell");
  return { page, errors };
}

const history = (page) => page.evaluate(() => JSON.parse(localStorage.getItem("koma-game")).history);
const square = (name) => `#board g.cell[data-square="${name}"]`;
const turn = (page) => page.$eval("#turn", (e) => e.textContent);

test("the page loads with no console error and draws Yonin", async () => {
  const { page, errors } = await open(null);
  assert.equal(await page.$$eval("#board g.cell", (l) => l.length), 81);
  assert.match(await turn(page), /^South to move/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("shogi: a human moves by clicking, an illegal click changes nothing", async () => {
  const setup = { name: "shogi", options: { impasse: "csa27" }, seats: ["human", "human"], history: [] };
  const { page, errors } = await open(setup);
  await page.click(square("7g"));
  assert.deepEqual(await page.$$eval("#board rect.target", (l) => l.map((r) => r.parentNode.dataset.square)), ["7f"]);
  await page.click(square("5e"));  // not a target: only the selection goes
  assert.deepEqual(await history(page), []);
  await page.click(square("7g"));
  await page.click(square("7f"));
  assert.deepEqual(await history(page), ["7g7f"]);
  assert.match(await turn(page), /^Gote to move/);
  await page.click(square("7g"));  // Sente's square on Gote's turn: nothing
  assert.equal(await page.$$eval("#board rect.target", (l) => l.length), 0);
  // With impasse csa27 shogi has the declaration: a wrong one loses.
  assert.equal(await page.$eval("#declare", (b) => b.hidden), false);
  await page.click("#declare");
  assert.match(await page.$eval("#result", (e) => e.textContent), /^Game over \(declaration\): Sente 1, Gote 2$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Yonin: a CPU seat answers the human's move", async () => {
  const setup = { name: "yonin", options: {}, seats: ["human", "easy", "human", "human"], history: [] };
  const { page, errors } = await open(setup);
  await page.click(square("5g"));
  await page.click(square("5f"));
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("koma-game")).history.length === 2);
  assert.equal((await history(page))[0], "5g5f");
  assert.match(await turn(page), /^North to move/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a reload continues the saved game", async () => {
  const setup = { name: "shogi", options: {}, seats: ["human", "human"], history: ["7g7f", "3c3d"] };
  const { page } = await open(setup);
  assert.match(await turn(page), /^Sente to move/);
  await page.reload({ waitUntil: "networkidle0" });
  await page.waitForSelector("#board g.cell");
  assert.deepEqual(await history(page), ["7g7f", "3c3d"]);
  assert.equal(await page.$eval(square("3d"), (g) => g.textContent), "P");
  await page.close();
});

// Issue 40: a saved game with `seats: null` said "Cannot read properties of
// null". A saved game the page cannot read, or whose moves no longer replay,
// is set aside: the page says why and starts its first game (Yonin, South
// human), as with nothing saved.
test("a saved game that cannot be read: the page says so and starts a new game", async () => {
  const shogi = (changes) => JSON.stringify({ name: "shogi", options: {}, seats: ["human", "human"], history: [], ...changes });
  const unread = (why) => `the saved game could not be read (${why}); a new game started`;
  const cases = [
    [shogi({ seats: null }), unread("its seats are not one level per seat")],
    [shogi({ seats: ["human"] }), unread("its seats are not one level per seat")],
    [shogi({ seats: ["human", "grandmaster"] }), unread("its seats are not one level per seat")],
    [shogi({ history: "7g7f" }), unread("its history is not a list of moves")],
    [shogi({ history: ["7g7f", 7] }), unread("its history is not a list of moves")],
    [shogi({ options: null }), unread("its options are not an object of values")],
    [shogi({ options: { impasse: {} } }), unread("its options are not an object of values")],
    [shogi({ name: "no-such-game" }), unread("its variant is not one of the page's")],
    [shogi({ name: null }), unread("its variant is not one of the page's")],
    ["[]", unread("it is not an object")],
    ["7", unread("it is not an object")],
    ["{", unread("it is not JSON")],
    [shogi({ options: { impasse: "x" } }),
     /^the saved game could not be continued \(.*impasse.*\); a new game started$/],
    [shogi({ history: ["7g7f", "7g7f"] }),
     "the saved game could not be continued (there is no piece on 7g); a new game started"],
  ];
  for (const [raw, message] of cases) {
    const { page, errors } = await open(null, { raw });
    const error = await page.$eval("#error", (e) => e.textContent);
    if (typeof message === "string") assert.equal(error, message, raw);
    else assert.match(error, message, raw);
    assert.equal(await page.$$eval("#board g.cell", (l) => l.length), 81, raw);
    assert.match(await turn(page), /^South to move/, raw);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem("koma-game")));
    assert.deepEqual(saved, { name: "yonin", options: saved.options, seats: ["human", "strong", "strong", "strong"], history: [] }, raw);
    assert.deepEqual(errors, [], raw);
    await page.close();
  }
});

// Chu shogi's lion moves twice in one turn: a click on the square between
// its steps, then on where it goes on (its start square for igui or a pass);
// the same with the keyboard.
test("chu shogi: the lion's two steps by clicks and by keyboard", async () => {
  const setup = { name: "chushogi", options: {}, seats: ["human", "human"], history: ["7j7h", "6d6e"] };
  const { page, errors } = await open(setup);
  assert.equal(await page.$$eval("#board g.cell", (l) => l.length), 144);
  await page.click(square("7h"));
  await page.click(square("7g"));  // the first step: its second steps are shown
  assert.match(await turn(page), /second step from 7g/);
  assert.equal(await page.$$eval("#board rect.via", (l) => l.length), 1);
  const targets = await page.$$eval("#board g.cell", (l) =>
    l.filter((g) => g.querySelector("rect.target")).map((g) => g.dataset.square).sort());
  // From 7g: its eight neighbours (7h, the start, among them) and 7g itself (a single step there).
  assert.deepEqual(targets, ["6f", "6g", "6h", "7f", "7g", "7h", "8f", "8g", "8h"]);
  await page.click(square("7f"));
  assert.deepEqual(await history(page), ["7j7h", "6d6e", "7h7g7f"]);
  // Gote's reply, then Sente's lion out and back (a pass) with the keyboard.
  await page.click(square("5d"));
  await page.click(square("5e"));
  await tabTo(page, "7f");
  await page.keyboard.press("Enter");
  await tabTo(page, "7e");
  await page.keyboard.press("Enter");
  await tabTo(page, "7f");
  await page.keyboard.press("Enter");
  assert.deepEqual(await history(page), ["7j7h", "6d6e", "7h7g7f", "5d5e", "7f7e7f"]);
  assert.deepEqual(errors, []);
  await page.close();
});

// Presses Tab (or Shift+Tab) until the square `name` has the focus.
async function tabTo(page, name) {
  const at = () => page.evaluate(() => document.activeElement?.dataset?.square ?? null);
  for (const back of [false, true])
    for (let i = 0; i < 200; ++i) {
      if ((await at()) === name) return;
      if (back) await page.keyboard.down("Shift");
      await page.keyboard.press("Tab");
      if (back) await page.keyboard.up("Shift");
    }
  assert.fail(`Tab never reached ${name}`);
}

test("a move with the keyboard alone: Tab to a piece, Enter, Tab to its target, Enter", async () => {
  const setup = { name: "minishogi", options: {}, seats: ["human", "human"], history: [] };
  const { page } = await open(setup);
  await page.focus("#new-game");
  await tabTo(page, "5d");
  await page.keyboard.press("Enter");
  await tabTo(page, "5c");
  await page.keyboard.press("Enter");
  assert.deepEqual(await history(page), ["5d5c"]);
  // Escape drops a selection (Gote's pawn on 1b, now Gote is to move).
  await tabTo(page, "1b");
  await page.keyboard.press("Enter");
  assert.ok((await page.$$eval("#board rect.target", (l) => l.length)) > 0);
  await page.keyboard.press("Escape");
  assert.equal(await page.$$eval("#board rect.target", (l) => l.length), 0);
  await page.close();
});

test("Shipley's 15x15 board fits a 390 px wide screen, voids absent", async () => {
  const setup = { name: "shipley-individual", options: {}, seats: ["human", "human", "human", "human"], history: [] };
  const { page, errors } = await open(setup, { width: 390 });
  assert.equal(await page.$$eval("#board g.cell", (l) => l.length), 189);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  assert.ok((await page.$eval("#board", (e) => e.getBoundingClientRect().right)) <= 390);
  assert.deepEqual(errors, []);
  await page.close();
});

// Saves a screenshot into $SCREENSHOTS (docs/images/, by hand) when asked.
async function shot(page, name) {
  if (!process.env.SCREENSHOTS) return;
  await page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png`, fullPage: true });
}

test("a whole all-CPU Yonin game reaches a result", { timeout: 300000 }, async () => {
  const setup = { name: "yonin", options: { max_plies: "200" }, seats: ["easy", "easy", "easy", "easy"], history: [] };
  const { page, errors } = await open(setup);
  await page.waitForFunction(() => document.getElementById("result").textContent !== "", { timeout: 280000 });
  const result = await page.$eval("#result", (e) => e.textContent);
  assert.match(result, /^Game over \((last_seat_standing|max_plies|repetition|no_seat_can_move)\): South \d, West \d, North \d, East \d$/);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem("koma-game")));
  assert.ok(saved.history.length > 0 && saved.history.length <= 200);
  assert.deepEqual(errors, []);
  await shot(page, "web-yonin-finished-desktop");
  await page.setViewport({ width: 390, height: 844 });
  await shot(page, "web-yonin-finished-390");
  await page.close();
});

test("screenshots of the start, desktop and 390 px wide", async () => {
  for (const [name, width] of [["desktop", 1000], ["390", 390]]) {
    const { page } = await open({ name: "yonin", options: {}, seats: ["human", "strong", "strong", "strong"], history: [] }, { width });
    await shot(page, `web-yonin-start-${name}`);
    await page.close();
  }
  const { page } = await open({ name: "shipley-individual", options: {}, seats: ["human", "human", "human", "human"], history: [] }, { width: 390 });
  await shot(page, "web-shipley-start-390");
  await page.close();
});
