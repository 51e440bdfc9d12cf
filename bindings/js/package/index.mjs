// koma for JavaScript (docs/js.md): an ES-module entry over the emscripten
// module koma.cjs (CommonJS, MODULARIZE). Optional arguments are filled in
// here; everything else is the module's own API.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const createModule = require("./koma.cjs");

export default async function createKoma(moduleOptions = {}) {
  const m = await createModule(moduleOptions);
  class Player {
    constructor(variant, level, limits) {
      return new m.Player(variant, level, limits ?? null);
    }
  }
  return {
    loadVariant: (source, options) => m.loadVariant(source, options ?? null),
    variants: () => m.variants(),
    perft: (variant, depth, position) => m.perft(variant, depth, position ?? null),
    readRecord: (text, game) => m.readRecord(text, game ?? 1),
    writeRecord: (record) => m.writeRecord(record),
    Game: m.Game,
    Variant: m.Variant,
    Player,
  };
}
