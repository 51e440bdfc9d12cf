// koma for JavaScript (docs/js.md): an ES-module entry over the emscripten
// module koma.cjs (CommonJS, MODULARIZE). The API is the module's own,
// optional arguments included; this file only picks it out of the module.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const createModule = require("./koma.cjs");

export default async function createKoma(moduleOptions = {}) {
  const m = await createModule(moduleOptions);
  return {
    loadVariant: m.loadVariant,
    variants: m.variants,
    perft: m.perft,
    readRecord: m.readRecord,
    writeRecord: m.writeRecord,
    Game: m.Game,
    Variant: m.Variant,
    Player: m.Player,
  };
}
