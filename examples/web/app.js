// The koma web page (docs/js.md): plays every bundled variant with any mix
// of human and CPU seats. The rules are all koma's (koma.js, the WebAssembly
// module); this file only draws and asks. CPU seats search in a Web Worker
// (worker.js), so the page never freezes. The game is kept in localStorage
// and continued after a reload.
"use strict";

const LEVELS = ["human", "easy", "normal", "medium", "strong", "hard", "expert"];
const CPU_LIMITS = { nodes: 20000 };
const ANGLE = { up: 0, right: 90, down: 180, left: 270 };
const STORE = "koma-game";
const $ = (id) => document.getElementById(id);

let koma = null;      // the module
let variant = null;   // koma Variant of the game
let game = null;      // koma Game
let setup = null;     // {name, options, seats}: what the game was started with
let cells = [];       // square name per cell index, null for voids
let kinds = [];       // variant.kinds()
let movers = [];      // seat that played each entry of the game's history
let selection = null; // {from, moves}, {from, via, moves} (a double move's second step) or {drop, moves}
let pendingPromotion = null;
let worker = null;
let cpuRequest = 0;   // id of the move asked of the worker, 0 when none

function showError(message) {
  $("error").textContent = message || "";
}

function newWorker() {
  if (worker) worker.terminate();
  worker = new Worker("worker.js");
  worker.onmessage = (e) => {
    if (e.data.id !== cpuRequest) return;  // an answer to a game since undone
    cpuRequest = 0;
    if (e.data.error) return showError(`CPU seat: ${e.data.error}`);
    play(e.data.move);
  };
}

function save() {
  localStorage.setItem(STORE, JSON.stringify({ ...setup, history: game.history() }));
}

// A saved game the page cannot read: the message says why.
class Unreadable extends Error {}
const SEATS_UNREADABLE = "its seats are not one level per seat";

// The saved game (the text kept in localStorage) as {setup, history},
// checked before any use; null when none is saved. Throws Unreadable.
function readSaved(text) {
  if (text === null) return null;
  let saved;
  try {
    saved = JSON.parse(text);
  } catch {
    throw new Unreadable("it is not JSON");
  }
  if (typeof saved !== "object" || saved === null || Array.isArray(saved)) throw new Unreadable("it is not an object");
  const { name, options, seats, history } = saved;
  if (!koma.variants().includes(name)) throw new Unreadable("its variant is not one of the page's");
  const isValue = (x) => ["string", "number", "boolean"].includes(typeof x);
  if (typeof options !== "object" || options === null || Array.isArray(options) || !Object.values(options).every(isValue))
    throw new Unreadable("its options are not an object of values");
  if (!Array.isArray(seats) || !seats.every((level) => LEVELS.includes(level))) throw new Unreadable(SEATS_UNREADABLE);
  if (!Array.isArray(history) || !history.every((move) => typeof move === "string"))
    throw new Unreadable("its history is not a list of moves");
  return { setup: { name, options, seats }, history };
}

// Starts (or restores) a game: loads the variant with its options, replays
// the history. Throws koma's errors (bad options, an illegal move), or
// Unreadable when the seats are not one level a seat; the game shown is
// then the one before.
function start(next, history = []) {
  const v = koma.loadVariant(next.name, next.options);
  let g = null;
  const seatsOf = [];
  try {
    if (next.seats.length !== v.seats().length) throw new Unreadable(SEATS_UNREADABLE);
    g = new koma.Game(v);
    for (const m of history) {
      seatsOf.push(g.toMove());
      g.play(m);
    }
  } catch (e) {
    if (g) g.delete();
    v.delete();
    throw e;
  }
  if (game) game.delete();
  if (variant) variant.delete();
  variant = v;
  game = g;
  setup = next;
  movers = seatsOf;
  cells = variant.cells();
  kinds = variant.kinds();
  selection = null;
  pendingPromotion = null;
  cpuRequest = 0;
  newWorker();
  fillSetupForm();
  save();
  render();
}

function fillVariantList() {
  const select = $("variant");
  for (const name of koma.variants()) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    select.append(option);
  }
  select.addEventListener("change", () => {
    const v = koma.loadVariant(select.value, {});
    fillOptions(v.options());
    fillSeats(v.seats(), null);
    v.delete();
  });
}

function fillOptions(options) {
  const box = $("options");
  box.textContent = "";
  for (const [name, value] of Object.entries(options)) {
    const label = document.createElement("label");
    label.textContent = `${name} `;
    const input = document.createElement("input");
    input.name = name;
    input.value = value;
    input.size = Math.max(3, String(value).length);
    label.append(input);
    box.append(label);
  }
}

function fillSeats(seats, chosen) {
  const box = $("seats");
  box.textContent = "";
  seats.forEach((seat, i) => {
    const label = document.createElement("label");
    label.textContent = `${seat.name} `;
    label.className = `seat-${seat.seat}`;
    const select = document.createElement("select");
    select.dataset.seat = seat.seat;
    for (const level of LEVELS) {
      const option = document.createElement("option");
      option.value = option.textContent = level;
      select.append(option);
    }
    select.value = chosen ? chosen[i] : i === 0 ? "human" : "strong";
    label.append(select);
    box.append(label);
  });
}

function fillSetupForm() {
  $("variant").value = setup.name;
  fillOptions(variant.options());
  fillSeats(variant.seats(), setup.seats);
}

function readSetupForm() {
  const options = {};
  for (const input of $("options").querySelectorAll("input")) options[input.name] = input.value;
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  return { name: $("variant").value, options, seats };
}

const isHuman = (seat) => setup.seats[seat - 1] === "human";
const seatName = (seat) => variant.seats()[seat - 1].name;

// The square names of a move's text: a drop's target, or a board move's
// origin, middle square (a double move: chu shogi's lion) and target. Shogi
// names end with their letter (7g, 12a), algebraic ones start with it (h13).
function squaresOf(move) {
  const plain = move.replace(/[+-]$/, "");
  const star = plain.indexOf("*");
  if (star >= 0) return [plain.slice(star + 1)];
  const shogi = plain.match(/\d+[a-z]/g) ?? [];
  return shogi.join("") === plain && shogi.every((n) => cells.includes(n)) ? shogi : plain.match(/[a-z]\d+/g) ?? [];
}
const isDouble = (move) => !move.includes("*") && squaresOf(move).length === 3;

// Where a move lands, and where a double move stops between its steps.
const destination = (move) => squaresOf(move).at(-1);
const middle = (move) => (isDouble(move) ? squaresOf(move)[1] : null);

// The squares a click may choose in the selection: the first step's or the
// only step's targets; in a double move's second step, its last squares and
// the middle one itself (to stop there, where a single move does).
function selectionTargets() {
  if (!selection) return new Set();
  if (selection.via)
    return new Set(selection.moves.map((m) => (isDouble(m) ? destination(m) : selection.via)));
  return new Set(selection.moves.map((m) => middle(m) ?? destination(m)));
}

function pieceLabel(piece) {
  if (piece.overturned) return "X";
  const kind = kinds[piece.kind];
  return $("kanji").checked && kind.kanji ? kind.kanji : kind.letter;
}

function render() {
  const svg = $("board");
  const width = variant.width;
  const height = variant.height;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  // The square that had the keyboard focus keeps it across the redraw.
  const focused = document.activeElement?.closest?.("#board g.cell")?.dataset.square;
  svg.textContent = "";
  const pieces = new Map(game.board().map((p) => [p.square, p]));
  const toMove = game.toMove();
  const humanTurn = !game.over() && isHuman(toMove) && !pendingPromotion;
  const targets = selectionTargets();
  const ns = "http://www.w3.org/2000/svg";
  cells.forEach((name, index) => {
    if (name === null) return;  // a void: no square
    const x = index % width;
    const y = Math.floor(index / width);
    const g = document.createElementNS(ns, "g");
    g.classList.add("cell");
    g.dataset.square = name;
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", x);
    rect.setAttribute("y", y);
    rect.setAttribute("width", 1);
    rect.setAttribute("height", 1);
    rect.classList.add("square");
    if (selection && selection.from === name) rect.classList.add("selected");
    if (selection && selection.via === name) rect.classList.add("via");
    if (targets.has(name)) rect.classList.add("target");
    g.append(rect);
    const piece = pieces.get(index);
    let label = name;
    if (piece) {
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", x + 0.5);
      text.setAttribute("y", y + 0.5);
      text.setAttribute("transform", `rotate(${ANGLE[piece.facing]} ${x + 0.5} ${y + 0.5})`);
      text.classList.add("piece", `seat-${piece.owner}`);
      text.textContent = pieceLabel(piece);
      g.append(text);
      label = `${name}: ${kinds[piece.kind].name} of ${seatName(piece.owner)}${piece.overturned ? " (out)" : ""}`;
    }
    const selectable = humanTurn && piece && !piece.overturned && piece.owner === toMove;
    if (selectable || targets.has(name)) g.setAttribute("tabindex", "0");
    g.setAttribute("role", "gridcell");
    g.setAttribute("aria-label", label);
    g.addEventListener("click", () => clickSquare(name));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        clickSquare(name);
      }
    });
    svg.append(g);
    if (name === focused && g.hasAttribute("tabindex")) g.focus();
  });
  renderHands(humanTurn);
  $("declare").hidden = !variant.hasDeclaration;
  renderTurn();
  maybeCpu();
}

function renderHands(humanTurn) {
  const hands = game.hands();
  const top = $("hands-top");
  const bottom = $("hands-bottom");
  top.textContent = bottom.textContent = "";
  variant.seats().forEach((seat, i) => {
    const box = document.createElement("div");
    box.className = `hand seat-${seat.seat}`;
    box.append(`${seat.name}:`);
    for (const [letter, count] of Object.entries(hands[i])) {
      const button = document.createElement("button");
      button.type = "button";
      const kind = kinds.find((k) => k.letter === letter);
      button.textContent = `${$("kanji").checked && kind.kanji ? kind.kanji : letter}×${count}`;
      button.disabled = !(humanTurn && seat.seat === game.toMove());
      if (selection && selection.drop === letter) button.classList.add("selected");
      button.addEventListener("click", () => selectDrop(letter));
      box.append(button);
    }
    (seat.facing === "up" ? bottom : top).append(box);
  });
}

function renderTurn() {
  const result = game.result();
  const out = game.eliminated();
  if (result) {
    const places = result.places.map((p, i) => `${seatName(i + 1)} ${p}`).join(", ");
    $("result").textContent = `Game over (${result.reason}): ${places}`;
    $("turn").textContent = "";
    return;
  }
  $("result").textContent = "";
  const toMove = game.toMove();
  let why = "";
  if (movers.length > 0) {
    // Whose turn plain turn order would give: the next active seat.
    const order = variant.turnOrder();
    const last = movers[movers.length - 1];
    let i = order.indexOf(last);
    let expected = null;
    for (let k = 1; k <= order.length; ++k) {
      const seat = order[(i + k) % order.length];
      if (!out.includes(seat)) { expected = seat; break; }
    }
    if (expected !== null && expected !== toMove) why = game.inCheck() ? " — check priority" : " — seats without a move pass";
  }
  const check = game.inCheck() ? ", in check" : "";
  const gone = out.length ? ` · out: ${out.map(seatName).join(", ")}` : "";
  const step = selection?.via
    ? `, second step from ${selection.via} (${selection.via} again stops there where it may, Esc cancels)`
    : "";
  const who = isHuman(toMove) ? `your move${step}` : `CPU (${setup.seats[toMove - 1]}) thinking`;
  $("turn").textContent = `${seatName(toMove)} to move${check}${why} — ${who}${gone}`;
}

// A click on a square: a piece of the seat to move selects it; a target of
// the selection plays the move that ends there (asking about promotion
// where it may promote or not). A square a double move steps through
// starts its second step: the targets are then where it may go on from
// there (its start square among them: igui, or a pass), and that square
// itself where a single move may stop there.
function clickSquare(name) {
  showError("");
  if (game.over() || !isHuman(game.toMove()) || pendingPromotion) return;
  if (selection?.via) {
    const chosen = selection.moves.filter((m) => (isDouble(m) ? destination(m) : selection.via) === name);
    if (chosen.length === 1) return play(chosen[0]);
    if (chosen.length > 1) return askPromotion(chosen);
  } else if (selection) {
    const doubles = selection.moves.filter((m) => middle(m) === name);
    const single = selection.moves.filter((m) => !isDouble(m) && destination(m) === name);
    if (doubles.length) {
      selection = { from: selection.from, via: name, moves: doubles.concat(single) };
      return render();
    }
    if (single.length === 1) return play(single[0]);
    if (single.length > 1) return askPromotion(single);
  }
  const moves = game.movesFrom(name);
  selection = moves.length ? { from: name, moves } : null;
  render();
}

function selectDrop(letter) {
  showError("");
  let moves = game.movesFrom(`${letter}*`);
  if (kinds.some((k) => k.letter === `+${letter}`)) moves = moves.concat(game.movesFrom(`+${letter}*`));
  selection = moves.length ? { drop: letter, moves } : null;
  render();
}

function askPromotion(choices) {
  pendingPromotion = choices;
  $("promotion").hidden = false;
  $("promote-yes").focus();
}

function answerPromotion(promote) {
  const choices = pendingPromotion;
  pendingPromotion = null;
  $("promotion").hidden = true;
  // The promoting form ends in "+" (or "-" where pieces turn back), or for a
  // drop starts with "+".
  const changes = (m) => /[+-]$/.test(m) || m.startsWith("+");
  const move = choices.find((m) => changes(m) === promote) ?? choices[0];
  play(move);
}

function play(move) {
  const seat = game.toMove();
  try {
    game.play(move);
  } catch (e) {
    showError(e.message);  // the game is unchanged
    return;
  }
  movers.push(seat);
  selection = null;
  save();
  render();
}

function maybeCpu() {
  if (game.over() || cpuRequest || isHuman(game.toMove())) return;
  const seat = game.toMove();
  cpuRequest = game.history().length + 1;
  worker.postMessage({
    id: cpuRequest,
    name: setup.name,
    options: setup.options,
    history: game.history(),
    level: setup.seats[seat - 1],
    limits: { ...CPU_LIMITS, seed: cpuRequest },
  });
}

function undo() {
  showError("");
  selection = null;
  pendingPromotion = null;
  $("promotion").hidden = true;
  const history = game.history();
  if (!history.length) return;
  // Back to the last human turn (or one move where every seat is a CPU).
  let n = history.length - 1;
  while (n > 0 && !isHuman(movers[n])) --n;
  if (!isHuman(movers[n])) n = history.length - 1;
  start(setup, history.slice(0, n));
}

// The impasse declaration (the action `win`), where the variant has one: a
// correct one wins, a wrong one loses (docs/variants/shogi.md).
function declare() {
  if (game.over() || !isHuman(game.toMove())) return;
  play("win");
}

function resign() {
  if (game.over() || !isHuman(game.toMove())) return;
  if (!variant.hasResignation) return showError("this variant has no resignation");
  play("resign");
}

// Whether the browser has a font with kanji: "玉" is drawn wider than a
// character no font has. Without one the Kanji switch stays off (letters).
function hasKanjiFont() {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return false;
  context.font = "32px sans-serif";
  return context.measureText("玉").width !== context.measureText("\uffff").width;
}

async function main() {
  koma = await createKoma();
  if (!hasKanjiFont()) {
    $("kanji").disabled = true;
    $("kanji").parentElement.title = "no font with kanji here: pieces show their letters";
  }
  fillVariantList();
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    showError("");
    try {
      start(readSetupForm());
    } catch (err) {
      showError(err.message);
    }
  });
  $("undo").addEventListener("click", undo);
  $("resign").addEventListener("click", resign);
  $("declare").addEventListener("click", declare);
  $("kanji").addEventListener("change", render);
  $("promote-yes").addEventListener("click", () => answerPromotion(true));
  $("promote-no").addEventListener("click", () => answerPromotion(false));
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (pendingPromotion) {
      pendingPromotion = null;
      $("promotion").hidden = true;
    }
    selection = null;
    render();
  });
  // The saved game, continued; else the first game, with a word on why the
  // saved one was set aside.
  try {
    const saved = readSaved(localStorage.getItem(STORE));
    if (saved) return start(saved.setup, saved.history);
  } catch (e) {
    const why = e instanceof Unreadable ? `could not be read (${e.message})` : `could not be continued (${e.message})`;
    showError(`the saved game ${why}; a new game started`);
  }
  const first = koma.variants().includes("yonin") ? "yonin" : koma.variants()[0];
  const v = koma.loadVariant(first, {});
  const seats = v.seats().map((s, i) => (i === 0 ? "human" : "strong"));
  v.delete();
  start({ name: first, options: {}, seats });
}

main();
