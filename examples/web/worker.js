// CPU seats of the koma web page: each request rebuilds the game from its
// history and asks a koma Player for a move, off the page's main thread.
/* global importScripts, createKoma */
"use strict";
importScripts("koma.js");

const ready = createKoma();

onmessage = async (e) => {
  const { id, name, options, history, level, limits } = e.data;
  const koma = await ready;
  let variant = null;
  let game = null;
  let player = null;
  try {
    variant = koma.loadVariant(name, options);
    game = new koma.Game(variant);
    for (const move of history) game.play(move);
    player = new koma.Player(variant, level, limits);
    postMessage({ id, move: player.choose(game) });
  } catch (err) {
    postMessage({ id, error: err.message });
  } finally {
    for (const o of [player, game, variant]) if (o) o.delete();
  }
};
