// Internal: a variant compiled from its descriptor. Rules are atoms (enums and
// flags read from YAML); move tables are flat arrays indexed by piece code
// (kind, facing) and square, with board edges and voids already cut out.
//
// Adding a rule atom (docs/descriptor.md#adding-a-rule-atom says the same):
//  1. the field, here, named after its YAML key in the struct of its mapping
//     (`end.goal.safe` is Rules::end.goal.safe, `promotion.on` is
//     Rules::promotion.on), with its enum's words beside the enum and a
//     comment giving the key's path;
//  2. its row in the key table, lib/schema.cpp (its path and how its value
//     is read), beside its siblings'; a value that cannot fit the board
//     refused in check_fits (lib/descriptor.cpp);
//  3. its use: one function in lib/rules.cpp or lib/movegen.cpp that the
//     generator and the illegal-move explainer both call where both need it
//     (promotion_forms, files_at_limit);
//  4. its reason word, if it ends games (koma::Reason, lib/result.cpp,
//     docs/api.md);
//  5. its row in docs/descriptor.md, and its word in tests/fuzz/descriptor.dict;
//  6. a test of the atom on its own, named by its path, and the descriptors
//     that need it (tests/schema_test.cpp checks 5 and 6 for every row).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "koma/detail/state.hpp"
#include "koma/result.hpp"
#include "koma/variant.hpp"

namespace koma::detail {

// Each enum of a descriptor key, with the words that name its values in YAML
// (in the order an error message lists them).
template <class E>
using Words = std::vector<std::pair<std::string, E>>;

// promotion.zone
enum class ZoneRule { none, far_rows, enemy_homes };
inline const Words<ZoneRule> kZoneRuleWords = {{"far_rows", ZoneRule::far_rows},
                                               {"enemy_homes", ZoneRule::enemy_homes},
                                               {"none", ZoneRule::none}};
// kings.capture
enum class RoyalCapture { never, eliminates, when_checkmated };
inline const Words<RoyalCapture> kRoyalCaptureWords = {
    {"never", RoyalCapture::never},
    {"eliminates", RoyalCapture::eliminates},
    {"when_checkmated", RoyalCapture::when_checkmated}};
// mate
enum class MateDetect { immediate, on_turn, none };
inline const Words<MateDetect> kMateDetectWords = {{"immediate", MateDetect::immediate},
                                                   {"on_turn", MateDetect::on_turn},
                                                   {"none", MateDetect::none}};
// no_legal_move
enum class NoMove { eliminate, mate, pass };
inline const Words<NoMove> kNoMoveWords = {
    {"eliminate", NoMove::eliminate}, {"mate", NoMove::mate}, {"pass", NoMove::pass}};
// elimination.king
enum class KingOnElim { keep, overturn };
inline const Words<KingOnElim> kKingOnElimWords = {{"keep", KingOnElim::keep},
                                                   {"overturn", KingOnElim::overturn}};
// elimination.pieces
enum class PiecesOnElim { inactive, to_mater };
inline const Words<PiecesOnElim> kPiecesOnElimWords = {{"inactive", PiecesOnElim::inactive},
                                                       {"to_mater", PiecesOnElim::to_mater}};
// elimination.hand
enum class HandOnElim { frozen, removed, to_mater };
inline const Words<HandOnElim> kHandOnElimWords = {{"frozen", HandOnElim::frozen},
                                                   {"removed", HandOnElim::removed},
                                                   {"to_mater", HandOnElim::to_mater}};
// end.repetition.perpetual_check
enum class Perpetual { draw, loses, forbidden };
inline const Words<Perpetual> kPerpetualWords = {
    {"draw", Perpetual::draw}, {"loses", Perpetual::loses}, {"forbidden", Perpetual::forbidden}};
// end.repetition.loser: who loses a repetition that is not a perpetual check
// (`none`, `mover`, `to_move`, or a seat's name, read apart).
enum class RepetitionLoser { none, mover, to_move, seat };
// end.last_seat_standing (`false`/`no` turn the ending off, read apart)
enum class LastSeatReason { last_seat_standing, cause };
inline const Words<LastSeatReason> kLastSeatReasonWords = {
    {"last_seat_standing", LastSeatReason::last_seat_standing},
    {"cause", LastSeatReason::cause},
    {"true", LastSeatReason::last_seat_standing},
    {"yes", LastSeatReason::last_seat_standing}};
// end.impasse.rule
enum class ImpasseRule { none, kings_entered, declaration, try_square };
inline const Words<ImpasseRule> kImpasseRuleWords = {{"none", ImpasseRule::none},
                                                     {"kings_entered", ImpasseRule::kings_entered},
                                                     {"declaration", ImpasseRule::declaration},
                                                     {"try", ImpasseRule::try_square}};
// places
enum class Places { elimination_order, teams, score, collector };
inline const Words<Places> kPlacesWords = {{"elimination_order", Places::elimination_order},
                                           {"teams", Places::teams},
                                           {"score", Places::score},
                                           {"collector", Places::collector}};
// end.to_move
enum class AfterEnd { next_active, next_seat };
inline const Words<AfterEnd> kAfterEndWords = {{"next_active", AfterEnd::next_active},
                                               {"next_seat", AfterEnd::next_seat}};

// drops.<kind>.overturned_king_attack, drops.promoted
enum class Permission { allowed, forbidden };
inline const Words<Permission> kPermissionWords = {{"forbidden", Permission::forbidden},
                                                   {"allowed", Permission::allowed}};
// drops.<kind>.mate: a drop that checkmates is legal, illegal, or legal and
// lost by its dropper (Fairy-Stockfish's convention)
// (in_front: illegal only on the square in front of an enemy royal, where
// it leaves that seat mated or without a legal move, annan shogi's rule)
enum class DropMate { allowed, forbidden, loses, in_front };
inline const Words<DropMate> kDropMateWords = {{"forbidden", DropMate::forbidden},
                                               {"allowed", DropMate::allowed},
                                               {"loses", DropMate::loses},
                                               {"in_front", DropMate::in_front}};
// moves_as: what a piece moves as (behind: the friendly piece directly
// behind it, where there is one)
enum class MovesAs { itself, behind };
inline const Words<MovesAs> kMovesAsWords = {{"itself", MovesAs::itself},
                                             {"behind", MovesAs::behind}};
// dialect.turn_mark: how move text marks a turn back to the plain side
// (promotion.demotion): '-', or '+' like every other turn over
inline const Words<bool> kTurnMarkWords = {{"plus_minus", false}, {"plus", true}};
// end.impasse.judged: when a declaration rule's count is made
enum class ImpasseJudged { on_declaration, turn_start };
inline const Words<ImpasseJudged> kImpasseJudgedWords = {
    {"on_declaration", ImpasseJudged::on_declaration}, {"turn_start", ImpasseJudged::turn_start}};
// kings.several: what a seat with more than one royal piece on the board
// means (a setup, or a promotion into a royal kind, can give it more).
enum class SeveralRoyals { forbidden, last_is_royal };
inline const Words<SeveralRoyals> kSeveralRoyalsWords = {
    {"forbidden", SeveralRoyals::forbidden}, {"last_is_royal", SeveralRoyals::last_is_royal}};
// drops.captured: where a captured (non-royal) piece goes.
enum class Captured { to_hand, removed };
inline const Words<Captured> kCapturedWords = {{"to_hand", Captured::to_hand},
                                               {"removed", Captured::removed}};
// promotion.on
// (enter_or_capture: chu shogi's, a move into the zone, a capture in it or
// out of it, or a move to where the piece could never move again)
enum class PromoteOn { any_move, capture, enter_or_capture };
inline const Words<PromoteOn> kPromoteOnWords = {{"any_move", PromoteOn::any_move},
                                                 {"capture", PromoteOn::capture},
                                                 {"enter_or_capture", PromoteOn::enter_or_capture}};
// end.repetition.perpetual_by: what makes a seat's moves perpetual (check
// only, or check or an attack by the moved piece: lishogi's chu shogi)
enum class PerpetualBy { check, check_or_attack };
inline const Words<PerpetualBy> kPerpetualByWords = {
    {"check", PerpetualBy::check}, {"check_or_attack", PerpetualBy::check_or_attack}};
// end.bare_king.rule, end.lone_royals
enum class BareKing { none, loses };
inline const Words<BareKing> kBareKingWords = {{"none", BareKing::none},
                                               {"loses", BareKing::loses}};
enum class LoneRoyals { none, draw };
inline const Words<LoneRoyals> kLoneRoyalsWords = {{"none", LoneRoyals::none},
                                                   {"draw", LoneRoyals::draw}};
// promotion.by
enum class ZoneBy { owner, facing };
inline const Words<ZoneBy> kZoneByWords = {{"owner", ZoneBy::owner}, {"facing", ZoneBy::facing}};
// pieces.<letter>.promotion: the piece's own must-promote, over
// promotion.compulsory (as_zone: what that says)
enum class PiecePromotion { as_zone, optional, compulsory };
inline const Words<PiecePromotion> kPiecePromotionWords = {
    {"optional", PiecePromotion::optional}, {"compulsory", PiecePromotion::compulsory}};

// Keys of two values, read into a bool (true for the second word here).
// notation: sfen
inline const Words<bool> kNotationWords = {{"sfen", true}, {"generic", false}};
// board.squares: shogi names (7g) rather than algebraic (g7)
inline const Words<bool> kSquareNamesWords = {{"shogi", true}, {"algebraic", false}};
// resignation: allowed
inline const Words<bool> kResignationWords = {{"allowed", true}, {"forbidden", false}};
// lion_trading.protected: forbidden (true) or allowed
inline const Words<bool> kProtectedLionWords = {{"forbidden", true}, {"allowed", false}};
// dead_squares: allowed (pieces may stand where they can never move)
inline const Words<bool> kDeadSquaresWords = {{"forbidden", false}, {"allowed", true}};
// seats[].facing, as koma::Facing counts: up 0, right 1, down 2, left 3
inline const Words<int> kFacingWords = {{"up", 0}, {"right", 1}, {"down", 2}, {"left", 3}};

// drops.<kind>
struct DropRule {
  int per_file = 0;  // most own unpromoted ones on a file a drop may make (nifu: 1); 0 = any
  DropMate mate = DropMate::allowed;                        // a drop that checkmates (uchifuzume)
  Permission overturned_king_attack = Permission::allowed;  // attacking an overturned king
};

// promotion (the zones and each kind's must-promote are compiled from it
// into VariantData)
struct PromotionRules {
  ZoneRule zone = ZoneRule::none;      // promotion.zone (far_rows where promotion is written)
  int depth = 3;                       // promotion.depth
  ZoneBy by = ZoneBy::owner;           // promotion.by
  bool compulsory = false;             // promotion.compulsory: a move that may promote must
  bool demotion = false;               // promotion.demotion: promoted pieces may turn back
  PromoteOn on = PromoteOn::any_move;  // promotion.on (capture: micro shogi)
};

// drops
struct DropsRules {
  bool enabled = true;                    // drops.enabled
  Captured captured = Captured::to_hand;  // drops.captured
  // drops.promoted: a piece in hand may be dropped either side up
  Permission promoted = Permission::forbidden;
  std::array<DropRule, kMaxKinds> by_kind{};  // drops.<letter>, per kind
};

// The game's rules, nested as the descriptor nests them: each field is
// named after its key, and each struct after its mapping.

// check
struct CheckRules {
  bool enabled = true;    // check.enabled: royals may not be left attacked
  bool priority = false;  // check.priority: next seat: first checked seat clockwise
};

// kings
struct KingsRules {
  RoyalCapture capture = RoyalCapture::never;  // kings.capture
  // kings.several: with last_is_royal, a seat with two or more royals on the
  // board has no king (none is in check; they are captured like other
  // pieces) and its last one is its king.
  SeveralRoyals several = SeveralRoyals::forbidden;
};

// elimination
struct EliminationRules {
  KingOnElim king = KingOnElim::overturn;        // elimination.king
  PiecesOnElim pieces = PiecesOnElim::inactive;  // elimination.pieces
  HandOnElim hand = HandOnElim::frozen;          // elimination.hand
};

// end.goal (dobutsu's try): a royal on its far rows wins
struct GoalRules {
  int depth = 0;      // end.goal.depth; 0 = no goal
  bool safe = false;  // end.goal.safe: only where no enemy attacks it
};

// end.repetition
struct RepetitionRules {
  int count = 4;                                  // end.repetition.count
  Perpetual perpetual_check = Perpetual::draw;    // end.repetition.perpetual_check
  PerpetualBy perpetual_by = PerpetualBy::check;  // end.repetition.perpetual_by
  RepetitionLoser loser = RepetitionLoser::none;  // end.repetition.loser; none: a draw
  int loser_seat = -1;                            // the seat end.repetition.loser names
};

// end.impasse
struct ImpasseRules {
  ImpasseRule rule = ImpasseRule::none;                  // end.impasse.rule
  std::array<int, kMaxKinds> points{};                   // end.impasse.points, per kind
  int lose_below = 24;                                   // end.impasse.lose_below (kings_entered)
  std::array<int, kMaxSeats> win_at{};                   // end.impasse.win_at (declaration)
  std::array<int, kMaxSeats> draw_at{};                  // end.impasse.draw_at; 0 = no draw band
  int min_pieces_in_zone = 10;                           // end.impasse.min_pieces_in_zone
  ImpasseJudged judged = ImpasseJudged::on_declaration;  // end.impasse.judged
};

// end.bare_king (chu shogi): a seat left with its royal alone loses
struct BareKingRules {
  BareKing rule = BareKing::none;  // end.bare_king.rule
  std::uint64_t uncounted = 0;     // end.bare_king.uncounted: a bit per kind
};

// end
struct EndRules {
  bool last_seat_standing = true;  // end.last_seat_standing (false/no: off)
  LastSeatReason last_seat_reason = LastSeatReason::last_seat_standing;  // its reason word
  bool last_team_standing = false;                                       // end.last_team_standing
  GoalRules goal;
  int mates = 0;                // end.mates: the game ends after n eliminations; 0 = off
  int checks = 0;               // end.checks: the seat giving its n-th check wins; 0 = off
  bool team_checkmate = false;  // end.team_checkmate
  int collect = -1;             // end.collect: the kind whose whole set wins; -1 = off
  RepetitionRules repetition;
  ImpasseRules impasse;
  AfterEnd to_move = AfterEnd::next_active;  // end.to_move: the seat named once over
  BareKingRules bare_king;
  LoneRoyals lone_royals = LoneRoyals::none;  // end.lone_royals
};

// lion_trading (chu shogi): the pieces it calls lions, and what guards them
struct LionRules {
  std::uint64_t lions = 0;  // lion_trading.lions: a bit per kind; none: no such rules
  // lion_trading.protected: forbidden: a lion may not take a protected lion
  // that is not next to it
  bool protected_forbidden = true;
  std::uint64_t bridge_ignores = 0;  // lion_trading.bridge_ignores: a bit per kind
  bool counter_strike = true;        // lion_trading.counter_strike
  bool is_lion(int kind) const { return (lions >> kind) & 1u; }
};

struct Rules {
  PromotionRules promotion;
  DropsRules drops;
  CheckRules check;
  KingsRules kings;
  MovesAs moves_as = MovesAs::itself;        // moves_as
  MateDetect mate = MateDetect::immediate;   // mate
  NoMove no_legal_move = NoMove::eliminate;  // no_legal_move
  EliminationRules elimination;
  bool resignation = false;  // resignation
  EndRules end;
  LionRules lions;
  Places places = Places::elimination_order;  // places
  int max_plies = 0;                          // the built-in option max_plies
};

struct VariantData {
  std::string name, title, path;
  // A number no other variant compiled in this process has: what a cache
  // kept across searches (EvalCache) tells variants apart by.
  std::uint64_t serial = 0;
  Options options;
  bool sfen = false;
  bool shogi_squares = true;  // 7g style (boards up to 9x9) or algebraic
  int width = 9, height = 9, nsq = 81;
  SquareSet board;  // the real squares (no voids)

  int nseats = 2;
  std::vector<std::string> seat_names;
  std::array<int, kMaxSeats> seat_facing{};
  std::vector<int> turn_order;          // seat indices
  std::vector<int> turn_order_numbers;  // the same as seat numbers, for the API
  // [seat][steps]: the seat `steps` turns after `seat` (0 <= steps <=
  // nseats), read after every move without a division.
  std::array<std::array<std::int8_t, kMaxSeats + 1>, kMaxSeats> turn_after{};
  std::array<std::uint8_t, kMaxSeats> partners{};  // mask of the seat's team, itself included
  std::array<SquareSet, kMaxSeats> home{};         // a seat's home region (enemy_homes zones)

  std::vector<PieceKindInfo> kinds;
  std::array<std::int8_t, kMaxKinds> flip{};  // [kind]: flip_of, filled with the promotion rules
  std::array<SquareSet, kMaxSeats> zone_of_owner{};
  std::array<SquareSet, 4> zone_of_facing{};
  std::array<SquareSet, kMaxSeats> goal_of_owner{};         // end.goal's squares per seat
  std::array<PiecePromotion, kMaxKinds> piece_promotion{};  // pieces.<letter>.promotion
  // [kind]: a move that may promote must (promotion.compulsory, or the
  // piece's own `promotion: compulsory`), compiled from the two.
  std::array<bool, kMaxKinds> must_promote{};
  bool dead_squares_allowed = false;  // dead_squares: allowed (then `dead` is empty)
  // [code]: the squares from which the piece has no move on an empty board,
  // whatever dead_squares says (`dead` is them where they are forbidden).
  std::vector<SquareSet> never_moves;
  // lion_trading.counter_strike: the key of each square as the position's
  // counter-strike square (State::strike).
  std::vector<std::uint64_t> z_strike;
  bool counter_strike() const { return rules.lions.lions != 0 && rules.lions.counter_strike; }
  // SFEN's third field is the counter-strike square (`-` for none) rather
  // than hands: a variant with lions and no hands, as chu shogi's SFEN
  // writes it whether the rule is on or not.
  bool strike_in_sfen() const {
    return rules.lions.lions != 0 && !rules.drops.enabled &&
           rules.drops.captured == Captured::removed;
  }
  // dialect: what SFEN and move text write for each kind on the board (and
  // in drops) and in hand; empty: the kind's letter (sfen_letter,
  // hand_letter read them). plus_turns_back: '+' marks a turn back too.
  std::array<std::string, kMaxKinds> dialect_letters{}, dialect_hand{};
  bool plus_turns_back = false;
  const std::string& sfen_letter(int kind) const {
    const std::string& l = dialect_letters[static_cast<std::size_t>(kind)];
    return l.empty() ? kinds[static_cast<std::size_t>(kind)].letter : l;
  }
  const std::string& hand_letter(int kind) const {
    const std::string& l = dialect_hand[static_cast<std::size_t>(kind)];
    return l.empty() ? sfen_letter(kind) : l;
  }

  Rules rules;

  // Move tables. Vectors are screen steps (dx right, dy down).
  int ncodes = 1;  // codes 1..ncodes-1 are pieces
  int nvec = 0;
  std::vector<std::array<int, 2>> vecs;
  std::vector<std::uint8_t>
      range;  // [code * nvec + v], any of the 256 codes: 0 none, n steps, 255 unlimited
  std::vector<std::uint8_t> rays;     // per (code, sq): count, then (len, squares...) per ray
  std::vector<std::uint32_t> ray_at;  // [code * nsq + sq] -> offset in rays
  // The moves that are not plain (Betza m, c, p; `rays` holds the plain
  // ones): per (code, sq) at xray_at, the number of rays, then each ray's
  // kind (kRayMove | kRayCapture | kRayHop bits), length and squares.
  static constexpr std::uint8_t kRayMove = 1, kRayCapture = 2, kRayHop = 4;
  // The count byte of a square's plain rays (`rays`) has kMoreRays set
  // where the piece has such rays there too; kRayCount masks the count.
  static constexpr std::uint8_t kMoreRays = 0x80, kRayCount = 0x7f;
  std::vector<std::uint8_t> xrays;
  std::vector<std::uint32_t> xray_at;  // [code * nsq + sq]
  // [code * nvec + v], as `range` (which counts the attacks of the moves that
  // capture without hopping) for the hops that capture: the farthest square
  // the hop reaches along v, the screen's counted; 0 none, 255 unlimited.
  std::vector<std::uint8_t> hop_range;
  // Some piece captures by hopping: an attack may pass one piece, so a
  // move onto or off a line can give or parry check (movegen.cpp).
  bool hoppers = false;
  // moves_as: behind. A piece moves (and attacks) as the friendly piece
  // directly behind it (movegen.hpp, moving_code). behind[facing * nsq +
  // sq] is that square for a piece of that facing, -1 off the board (for
  // every variant: drops.<letter>.mate: in_front reads it too).
  bool borrows = false;
  std::vector<std::int16_t> behind;
  int behind_of(int facing, int sq) const {
    return behind[static_cast<std::size_t>(facing) * static_cast<std::size_t>(nsq) +
                  static_cast<std::size_t>(sq)];
  }
  // The square in front of a piece of that facing (-1 off the board).
  int front_of(int facing, int sq) const { return behind_of((facing + 2) % 4, sq); }
  // Double moves (pieces.<letter>.double): per (code, sq) at double_at, the
  // number of first steps, then each one's square, its number of second
  // steps and their squares (the start square among them for a step back).
  // double_movers: some kind has one (double_at is empty otherwise).
  bool double_movers = false;
  std::vector<std::uint8_t> doubles;
  std::vector<std::uint32_t> double_at;  // [code * nsq + sq]; 0: a count of none
  const std::uint8_t* doubles_of(std::uint8_t code, int sq) const {
    return &doubles[double_at[static_cast<std::size_t>(code) * static_cast<std::size_t>(nsq) +
                              static_cast<std::size_t>(sq)]];
  }
  // Some move is a double move, or may set the counter-strike square: make
  // and unmake (movegen.cpp) take their slower way, which sees to both.
  bool unusual_moves = false;
  // Every ray is plain (xrays holds none) and no piece borrows: the
  // generator compiles without the others' tests there (movegen.cpp,
  // with_generator).
  bool all_plain = true;
  // A move may change what another piece attacks otherwise than by opening
  // or closing its lines (hoppers, borrowing): the shortcuts that read
  // checks and pins from lines alone do not hold.
  bool indirect_attacks() const { return hoppers || borrows; }
  // A seat may declare impasse (the action `win`): a declaration rule
  // judged when declared, not at each turn's start.
  bool declares_impasse() const {
    return rules.end.impasse.rule == ImpasseRule::declaration &&
           rules.end.impasse.judged == ImpasseJudged::on_declaration;
  }
  // [code * nsq + sq]: the squares of the rays that capture, all that the
  // piece could attack on an empty board or past a screen (a capture
  // generator skips a piece that reaches no enemy piece this way).
  std::vector<SquareSet> reach_from;
  std::vector<std::uint8_t> rev;        // per (sq, v): len, squares walking back along v
  std::vector<std::uint32_t> rev_at;    // [sq * nvec + v]
  std::vector<std::int16_t> rev_first;  // [sq * nvec + v]: first square of rev's walk, or -1
  // Boards of at most 64 squares: rev's walks as bit masks [sq * nvec + v],
  // so the first piece along one is a bit scan (empty on larger boards).
  std::vector<std::uint64_t> rev_bits;
  std::vector<std::uint8_t> rev_up;  // [v]: the walk back goes to higher indices
  std::vector<int> leap_vecs,
      slide_vecs;  // vectors no piece rides more than one step, and the rest
  // Per square, only the vectors along which something can stand (on small
  // boards and beside voids most cannot): the leap vectors with their first
  // square, and the slide vectors with a walk, at [near_at[sq], near_at[sq + 1]).
  struct Near {
    std::int16_t vi, q;
  };
  std::vector<Near> leaps_near;
  std::vector<std::uint32_t> leaps_near_at;
  std::vector<std::int16_t> slides_near;
  std::vector<std::uint32_t> slides_near_at;
  std::vector<std::int16_t> rev_delta;  // [v]: index step of the walk back along v
  std::vector<SquareSet> dead;          // [code]: squares where the piece could never move
  std::vector<std::int8_t> file_axis;   // [facing]: 0 = columns are files, 1 = rows
  // For the evaluation, which reads them at every search node: each square's
  // column and row (no division by the width), a kind's value in
  // centi-pawns (evaluation.hpp's piece_value) and whether a piece code
  // rides (has a ray longer than one step somewhere).
  std::vector<std::uint8_t> col, row;
  std::array<int, kMaxKinds> value100{};
  std::vector<std::uint8_t> rides;  // [code]
  // [code]: 1 where two of the piece's rays share a square on some square of
  // the board (`RD`, `BA`, `W2D`: different steps along one direction), so
  // that walking every ray would reach a destination twice; the generator
  // then lists each destination once.
  std::vector<std::uint8_t> rays_overlap;
  std::vector<std::uint8_t> steps;  // [a * nsq + b]: king steps from a to b (Chebyshev)
  int king_steps(int a, int b) const { return steps[static_cast<std::size_t>(a) * nsq + b]; }
  // The row of king steps from `a` to every square (the table is symmetric).
  const std::uint8_t* steps_from(int a) const { return &steps[static_cast<std::size_t>(a) * nsq]; }
  std::vector<SquareSet> near2;  // [sq]: the board's squares within two king steps
  // For telling whether a move checks (movegen.hpp's move_checks): [sq] the
  // squares from which some piece could attack sq, whatever stands between;
  // [k * nsq + q] the slide vector along whose walk back from k the square q
  // lies, kNoLine if none, kManyLines if several (riders of different steps
  // along one direction); and the leap vector that reaches k from q
  // (kNoLine if none).
  std::vector<SquareSet> reach_to;
  static constexpr std::int16_t kNoLine = -1, kManyLines = -2;
  std::vector<std::int16_t> line_to, leap_to;

  // Zobrist keys.
  std::vector<std::uint64_t> z_cell;        // [(code * nseats + owner) * nsq + sq], code 0 unused
  std::vector<std::uint64_t> z_overturned;  // [owner * nsq + sq]
  std::array<std::array<std::uint64_t, kMaxKinds>, kMaxSeats> z_hand{};
  std::array<std::uint64_t, kMaxSeats> z_turn{}, z_elim{};

  State start;  // with seat 0 to move; first_seat applied by start_position()
  int first_seat = 0;
  std::array<int, kMaxSeats> royal_start{{-1, -1, -1, -1}};  // royal start squares
  int max_royals_per_seat = 1;  // more with kings.several: last_is_royal
  // [kind]: the first kind of its family, the kinds that promotion, turning
  // back and capture make of one another (P and +P; L too where +P demotes
  // to L). A family's number of pieces never changes in play, a kind's may.
  std::array<std::int8_t, kMaxKinds> family{};
  std::array<int, kMaxKinds> max_count{};  // [family]: the family's pieces in the set
  // The unpromoted kinds' names of `kind`'s family, joined by " and ".
  std::string family_name(int kind) const {
    std::string out;
    for (std::size_t k = 0; k < kinds.size(); ++k)
      if (family[k] == family[static_cast<std::size_t>(kind)] && !kinds[k].promoted)
        out += (out.empty() ? "" : " and ") + kinds[k].name;
    return out;
  }

  // Helpers.
  bool is_square(int sq) const { return sq >= 0 && sq < nsq && board.test(sq); }
  std::uint64_t cell_key(std::uint8_t code, int owner, int sq) const {
    return code == kOverturned
               ? z_overturned[static_cast<std::size_t>(owner) * nsq + sq]
               : z_cell[(static_cast<std::size_t>(code) * nseats + owner) * nsq + sq];
  }
  bool enemies(int a, int b) const { return a != b && !((partners[a] >> b) & 1u); }
  // The seat whose turn comes after `seat`'s in the turn order.
  int next_seat(int seat) const { return turn_after[static_cast<std::size_t>(seat)][1]; }
  // Mask of seats whose pieces can attack seat s's king: active enemies.
  std::uint8_t attackers_of(const State& st, int s) const {
    const unsigned seats = (1u << nseats) - 1;
    return static_cast<std::uint8_t>(seats & ~(partners[s] | (1u << s)) & ~st.eliminated_mask);
  }
  const SquareSet& zone_for(int owner, int facing) const {
    return rules.promotion.by == ZoneBy::facing ? zone_of_facing[facing] : zone_of_owner[owner];
  }
  int file_of(int sq, int facing) const { return file_axis[facing] == 0 ? sq % width : sq / width; }
  int base_kind(int kind) const { return kinds[kind].demotes_to; }
  // The kind a piece of `kind` turns into on a promoting move: its promoted
  // side, or with promotion.demotion its plain side again; -1 for none.
  int flip_of(int kind) const { return flip[static_cast<std::size_t>(kind)]; }
};

}  // namespace koma::detail
