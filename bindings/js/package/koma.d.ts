// Types of koma's JavaScript API (docs/js.md).

/** Thrown by every call that koma refuses; `name` says which kind. */
export interface KomaError extends Error {
  name: "DescriptorError" | "NotationError" | "IllegalMove" | "RecordError" | "Error";
}

export interface Seat { seat: number; name: string; facing: "up" | "right" | "down" | "left"; }
export interface Kind {
  kind: number; letter: string; name: string; kanji: string;
  royal: boolean; promoted: boolean; promotesTo: number;
}
export interface Piece {
  square: number; name: string; kind: number; letter: string;
  owner: number; facing: "up" | "right" | "down" | "left"; overturned: boolean;
}
export interface Result { places: number[]; reason: string; }
/** One game of a record (docs/notation.md#game-records). */
export interface GameRecord {
  variant: string; descriptor: string; options: Record<string, string>;
  firstSeat: number | null; start: string | null; seats: string[]; moves: string[];
  result: Result | null; where: string;
}
/**
 * A game to write as a record line: a GameRecord, or the same keys set by hand.
 * A missing or null descriptor, options, firstSeat, start or result is absent
 * ("", {}, the descriptor's default, the start position, unfinished); `where`
 * is not written. Other keys are refused.
 */
export interface GameRecordInput {
  variant: string; descriptor?: string | null;
  options?: Record<string, string | number | boolean> | null;
  firstSeat?: number | null; start?: string | null; seats: string[]; moves: string[];
  result?: Result | null; where?: string;
}
export interface Limits { nodes?: number; depth?: number; seconds?: number; seed?: number; }

/**
 * The rules of one game, loaded once (a second load of the same source and
 * options shares them). delete() frees it at once; one dropped without it is
 * freed after a garbage collection (docs/js.md#memory).
 */
export interface Variant {
  readonly name: string;
  readonly title: string;
  readonly width: number;
  readonly height: number;
  readonly usesSfen: boolean;
  readonly hasResignation: boolean;
  readonly hasDeclaration: boolean;
  readonly capturesToHand: boolean;
  options(): Record<string, string>;
  seats(): Seat[];
  turnOrder(): number[];
  /** Every cell of the bounding rectangle, row by row from the top: its name, or null for a void. */
  cells(): (string | null)[];
  kinds(): Kind[];
  startPosition(): string;
  delete(): void;
}

/** A game: a start position and the moves played since. delete() frees it at once. */
export interface Game {
  legalMoves(): string[];
  /** The legal moves of the piece on a square ("5g"), or the drops of a kind ("P*"). */
  movesFrom(where: string): string[];
  /** Plays move text or the actions "resign" and "win"; throws (game unchanged) if illegal. */
  play(move: string): void;
  undo(): void;
  whyIllegal(move: string): string;
  position(): string;
  toMove(): number;
  inCheck(): boolean;
  over(): boolean;
  seatsInCheck(): number[];
  eliminated(): number[];
  history(): string[];
  /** One object per seat, {letter: count}. */
  hands(): Record<string, number>[];
  board(): Piece[];
  result(): Result | null;
  delete(): void;
}

export interface Player {
  /** A legal move for the seat to move, as text; the game is not changed. */
  choose(game: Game): string;
  /** Frees the search memory the two-seat expert keeps between moves (about 14 MiB). */
  release(): void;
  delete(): void;
}

export interface Koma {
  /** A bundled variant by name ("yonin"), or descriptor YAML text; options by name. */
  loadVariant(source: string, options?: Record<string, string | number | boolean> | null): Variant;
  /** The names of the bundled variants. */
  variants(): string[];
  perft(variant: Variant, depth: number, position?: string | null): number;
  /** Game `game` (from 1, default 1) of a game record's text (JSON Lines). */
  readRecord(text: string, game?: number | null): GameRecord;
  /** One line of a game record (docs/notation.md#game-records), without the newline. */
  writeRecord(record: GameRecordInput): string;
  Game: { new (variant: Variant): Game; new (variant: Variant, position: string): Game; };
  Player: { new (variant: Variant, level: string, limits?: Limits | null): Player; };
}

export default function createKoma(moduleOptions?: object): Promise<Koma>;
