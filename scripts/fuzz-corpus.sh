#!/bin/sh
# (Re)generates the seed corpora of the fuzz targets, tests/fuzz/corpus/<target>/,
# from the shipped descriptors (variants/), tests/data/*.jsonl, the USI
# sessions of tests/drivers and examples from the docs. Files named crash-*
# (inputs that once crashed a target or broke a round trip, kept as regression
# seeds) and seed-* (hand-written seeds, e.g. descriptors that switch on
# unusual rules) are left alone; every other file is rewritten.
#   sh scripts/fuzz-corpus.sh           rewrites tests/fuzz/corpus
#   sh scripts/fuzz-corpus.sh --check   makes the seeds in a scratch folder and
#                                       fails if tests/fuzz/corpus differs (the
#                                       ctest test fuzz.corpus)
# Every shipped descriptor gets its start position (koma-replay prints it) and
# a few plies of legal moves from it (koma-perft --divide lists them): the two
# drivers are taken from KOMA_BIN (a folder), else built into build/release.
# What comes out depends only on the descriptors and the test data.
set -e
cd "$(dirname "$0")/.."
corpus=tests/fuzz/corpus
data=tests/data
targets="descriptor position sfen move usi record"
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "fuzz-corpus.sh: takes --check or nothing, not '$1'" >&2; exit 2 ;;
esac
if [ $check = 1 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
else
  out=$corpus
fi
for t in $targets; do
  mkdir -p "$out/$t"
  find "$out/$t" -type f ! -name 'crash-*' ! -name 'seed-*' -delete
done

if [ -z "$KOMA_BIN" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j "${JOBS:-2}" --target koma-replay koma-perft >/dev/null
  KOMA_BIN=build/release
fi
replay=$KOMA_BIN/koma-replay
perft=$KOMA_BIN/koma-perft

# The targets pick a shipped descriptor by an input byte, in the order of
# fuzz::variant_files() (tests/fuzz/fuzz_support.hpp), read from there.
variants=$(sed -n '/variant_files()/,/};/p' tests/fuzz/fuzz_support.hpp | grep -o '"[^"]*\.yaml"' |
  tr -d '"' | sed 's/\.yaml$//')
for f in variants/*.yaml; do
  printf '%s\n' "$variants" | grep -qx "$(basename "$f" .yaml)" || {
    echo "fuzz-corpus.sh: $f is not in fuzz::variant_files() (tests/fuzz/fuzz_support.hpp)" >&2
    exit 1
  }
done
# Shell built-ins only where a step runs once per seed: a process per line of
# the test data would take most of the time.
# Sets index to the position of the descriptor $1 (by name) in that order.
variant_index() {
  index=0
  for v in $variants; do
    [ "$v" != "$1" ] || return 0
    index=$((index + 1))
  done
  echo "fuzz-corpus.sh: no shipped descriptor '$1'" >&2
  exit 1
}
# Writes the byte $1 (0 to 511).
byte() { printf "\\$(($1 / 64))$(($1 / 8 % 8))$(($1 % 8))"; }
# Writes the byte of the descriptor $1, then $2.
behind_variant() {
  variant_index "$1"
  byte $index
  printf '%s' "$2"
}
# Writes tests/fuzz/move.cpp's byte of the start position of the descriptor
# $1 (12 fixed positions, then the start position of every descriptor in that
# order), then $2.
behind_start() {
  variant_index "$1"
  byte $((12 + index))
  printf '%s' "$2"
}
# The descriptor of a mode of tests/data (tests/data/README.md).
mode_variant() {
  case "$1" in
    standard | standard-pdm-allowed) variant=yonin ;;
    king_capture) variant=yonin-king-capture ;;
    inherit) variant=yonin-inherit ;;
    team_orthogonal) variant=shipley-team-orthogonal ;;
    team_diagonal) variant=shipley-team-diagonal ;;
    *) variant=shipley-$1 ;;
  esac
}
# Prints the given fields of each JSON Lines record of a file, separated by
# tabs (no escapes occur in these files): a string field as it is, a list of
# strings (moves) as words separated by spaces, a number as it is; "-" for a
# missing field or an empty list.
#   fields FILE KEY...
fields() {
  file=$1
  shift
  awk -v keys="$*" '
    function value(line, key,   v) {
      if (!match(line, "\"" key "\": ")) return ""
      v = substr(line, RSTART + RLENGTH)
      if (v ~ /^"/) { v = substr(v, 2); return substr(v, 1, index(v, "\"") - 1) }
      if (v ~ /^\[/) { v = substr(v, 2, index(v, "]") - 2); gsub(/[",]/, "", v); return v }
      match(v, /^[^,}]*/)
      return substr(v, 1, RLENGTH)
    }
    BEGIN { n = split(keys, key, " ") }
    function shown(v) { return v == "" ? "-" : v }
    { out = shown(value($0, key[1])); for (i = 2; i <= n; ++i) out = out "\t" shown(value($0, key[i])); print out }
  ' "$file"
}
tab=$(printf '\t')

# --- descriptor: every shipped descriptor, and small ones of the docs' kinds.
for f in variants/*.yaml; do cp "$f" "$out/descriptor/$(basename "$f")"; done
cat >"$out/descriptor/tiny.yaml" <<'EOF'
koma: 1
name: tiny
board: {width: 3, height: 3}
seats:
  - {name: A, facing: up}
  - {name: B, facing: down}
pieces:
  K: {name: King, moves: K, royal: true}
  P: {name: Pawn, moves: fW, promotes_to: +P}
  +P: {name: Tokin, moves: WfF}
setup: 1K21/3/1K11 1 - 1 -
promotion: {zone: far_rows, depth: 1}
EOF
cat >"$out/descriptor/extends-try.yaml" <<'EOF'
koma: 1
extends: shogi.yaml
name: shogi-try
options:
  impasse: {default: try}
EOF
cat >"$out/descriptor/options.yaml" <<'EOF'
koma: 1
extends: yonin.yaml
name: yonin-options
options:
  max_plies: {default: 40}
  first_seat: {default: 3}
  pawn_drop_mate: {values: [forbidden, allowed], default: allowed}
EOF
cat >"$out/descriptor/placements.yaml" <<'EOF'
koma: 1
name: cross
board: {width: 7, height: 7, voids: [7a, 1a, 7g, 1g]}
seats:
  - {name: South, facing: up, home: 5g-3g}
  - {name: West, facing: right}
  - {name: North, facing: down}
  - {name: East, facing: left}
turn_order: [South, West, North, East]
teams: [[South, North], [West, East]]
pieces:
  K: {name: King, moves: K, royal: true}
  N: {name: Knight, moves: ffN, promotes_to: +N}
  +N: {name: Promoted knight, moves: WfF}
  Q: {name: Queen, moves: Q3, value: 900}
setup:
  South: {K: 4g, N: [5g, 3g], Q: 4f}
  others: rotate
promotion: {zone: far_rows, depth: 2, by: facing}
drops: {enabled: true, N: {nifu: false, mate: allowed}}
check: {enabled: true, priority: true}
elimination: {king: overturn, pieces: inactive, hand: frozen}
end: {last_seat_standing: cause, repetition: {count: 3, perpetual_check: loses}}
places: teams
EOF
cat >"$out/descriptor/big.yaml" <<'EOF'
koma: 1
name: big
board: {width: 16, height: 16, squares: algebraic, voids: p1}
seats:
  - {name: A, facing: up}
  - {name: B, facing: down}
pieces:
  P: {name: Pawn, moves: QNNAADD, promotes_to: +P}
  +P: {name: Super, moves: KDDAANN}
setup: P1P1P1P1P1P1P1P1P1P1P1P1P1P1P1P1/16/16/16/16/16/16/16/16/16/16/16/16/16/16/P2P2P2P2P2P2P2P2P2P2P2P2P2P2P2* 1 - 1 -
promotion: {zone: far_rows, depth: 16}
EOF
cat >"$out/descriptor/try-no-king.yaml" <<'EOF'
koma: 1
extends: shogi.yaml
name: try-no-king
options:
  impasse: {default: try}
setup: lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
EOF
cat >"$out/descriptor/pass.yaml" <<'EOF'
koma: 1
name: pass
board: {width: 4, height: 1}
seats:
  - {name: A, facing: up}
  - {name: B, facing: down}
  - {name: C, facing: left}
pieces:
  K: {name: King, moves: K, royal: true}
setup: K12K2 1 - 1 -
no_legal_move: pass
EOF
printf 'koma: 1\nname: [[[[[[[[[[x]]]]]]]]]]\n' >"$out/descriptor/nested.yaml"
printf 'koma: 1\na: &a [x, x, x]\nb: &b [*a, *a, *a]\nname: [*b, *b]\n' >"$out/descriptor/aliases.yaml"

# --- position and move: for every shipped descriptor, its start position
# (position/start-<name>) and a playout of legal moves from it
# (move/start-<name>), each ply's move the (7 x ply + 3)-th, cycling, of
# koma-perft --divide's sorted list, up to 8 plies or the end of the game;
# the position it reaches is position/play-<name>.
nl='
'
# Sets position to the position koma-replay reaches with the moves $2 from
# the start of the descriptor $1, and over to 1 if the game is over there.
replay() {
  shown=$("$replay" --variant "variants/$1.yaml" --moves "$2")
  position=${shown%%"$nl"*}
  position=${position#position }
  case "$shown" in *"${nl}result "*) over=1 ;; *) over=0 ;; esac
}
for name in $variants; do
  replay "$name" ""
  behind_variant "$name" "$position" >"$out/position/start-$name"
  moves=""
  ply=0
  while [ $ply -lt 8 ] && [ $over = 0 ]; do
    move=$("$perft" --variant "variants/$name.yaml" --position "$position" --depth 1 --divide |
      awk -v k=$((7 * ply + 3)) '/^(time|nodes) / { next } { m[n++] = $1 } END { if (n) print m[k % n] }')
    [ -n "$move" ] || break
    moves="${moves:+$moves }$move"
    replay "$name" "$moves"
    ply=$((ply + 1))
  done
  behind_start "$name" "$moves" >"$out/move/start-$name"
  behind_variant "$name" "$position" >"$out/position/play-$name"
done

# The positions of the test data, each behind its descriptor's byte.
n=0
for f in "$data"/yonin-positions.jsonl "$data"/shipley-positions.jsonl; do
  while IFS=$tab read -r mode position; do
    n=$((n + 1))
    mode_variant "$mode"
    behind_variant "$variant" "$position" >"$out/position/data-$n"
  done <<EOF
$(fields "$f" mode position)
EOF
done
# The shogi family's positions (tests/data/fsf-family-positions.jsonl), and
# the moves that reach each from the start (koma's notation: moves_usi10 where
# the row has it; none for the rows built by hand), behind the start
# position's byte.
n=0
while IFS=$tab read -r name sfen moves wide; do
  n=$((n + 1))
  behind_variant "$name" "$sfen" >"$out/position/family-$n"
  [ "$wide" = - ] || moves=$wide
  [ "$moves" = - ] || behind_start "$name" "$moves" >"$out/move/family-$n"
done <<EOF
$(fields "$data/fsf-family-positions.jsonl" variant sfen moves moves_usi10)
EOF
# The rule edges of two-player shogi (tests/data/shogi-rule-edges.jsonl), as
# positions of shogi.yaml and as SFEN.
n=0
while IFS= read -r sfen; do
  n=$((n + 1))
  behind_variant shogi "$sfen" >"$out/position/sfen-$n"
  printf '%s' "$sfen" >"$out/sfen/rule-edge-$n"
done <<EOF
$(fields "$data/shogi-rule-edges.jsonl" sfen)
EOF

# --- sfen: docs' examples besides the rule edges.
printf 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' >"$out/sfen/start"
printf 'lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4' >"$out/sfen/horse"
printf '4k4/9/4P4/9/9/9/9/9/4K4 b G 1' >"$out/sfen/mate"
printf '8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124' >"$out/sfen/midgame"

# --- move: the fixed positions of tests/fuzz/move.cpp (by index) with moves
# that are legal there, then some that are not; the games of the test data
# (their first 60 moves) from the start position of their descriptor.
{ byte 0; printf '7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 4e3d+ resign'; } >"$out/move/0-shogi"
{ byte 1; printf '3a2b 2b3c B*5e 7a6b 7g7f7e P*5a 5c5d win'; } >"$out/move/1-horse"
{ byte 2; printf '5c4b P*1b 5i5h P*5b 4a4b+'; } >"$out/move/2-edges"
{ byte 4; printf '3a2b 8g8f 4c4d B*5e 2g2f+'; } >"$out/move/4-yonin"
{ byte 8; printf 'h13h12 a8b8 P*h8 m14m13 resign'; } >"$out/move/8-shipley"
n=0
for f in "$data"/yonin-games.jsonl "$data"/shipley-games.jsonl; do
  while IFS=$tab read -r mode first all; do
    n=$((n + 1))
    # The start positions have the first seat to move.
    [ "$first" = 1 ] || continue
    mode_variant "$mode"
    moves=""
    i=0
    set -f
    for move in $all; do
      i=$((i + 1))
      [ $i -le 60 ] || break
      moves="$moves$move "
    done
    set +f
    behind_start "$variant" "$moves" >"$out/move/game-$n"
  done <<EOF
$(fields "$f" mode first_seat moves)
EOF
done

# --- usi: the scripted sessions of tests/drivers/usi without their # lines.
for f in tests/drivers/usi/*.usi; do
  grep -v '^#' "$f" >"$out/usi/$(basename "$f" .usi)"
done
printf 'usi\nsetoption name EnteringKingRule value TryRule\nposition startpos moves 7g7f 3c3d\ngo depth 1\nstop\n' \
  >"$out/usi/try-rule"

# --- record: the test data's games as koma records (mode -> variant), the
# drivers' record, and the docs' example.
n=0
for f in "$data"/yonin-games.jsonl "$data"/shipley-games.jsonl; do
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n' "$line" | sed 's/"mode": "standard-pdm-allowed"/"variant": "yonin", "options": {"pawn_drop_mate": "allowed"}/;
      s/"mode": "standard"/"variant": "yonin"/; s/"mode": "king_capture"/"variant": "yonin-king-capture"/;
      s/"mode": "inherit"/"variant": "yonin-inherit"/; s/"mode": "\(team_orthogonal\|team_diagonal\|individual\|kings\)"/"variant": "shipley-\1"/;
      s/shipley-team_/shipley-team-/' >"$out/record/game-$n"
  done <"$f"
done
cp tests/drivers/adjudicated.jsonl "$out/record/adjudicated"
cat >"$out/record/docs" <<'EOF'
{"variant": "yonin", "descriptor": "variants/yonin.yaml", "options": {"pawn_drop_mate": "forbidden"}, "first_seat": 1, "start": null, "seats": ["strong", "normal", "easy", "human"], "moves": ["5g5f", "7e6e"], "result": null}
{"variant": "shogi", "descriptor": "variants/shogi.yaml", "options": {}, "first_seat": null, "start": "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "seats": ["human", "easy"], "moves": ["G*5b"], "result": {"places": [1, 2], "reason": "checkmate"}}
EOF
if [ $check = 1 ]; then
  # Only the made seeds are compared: crash-* and seed-* files are kept by hand.
  diff -r -x 'crash-*' -x 'seed-*' "$corpus" "$out" || {
    echo "fuzz-corpus.sh: $corpus differs from what this script makes; run sh scripts/fuzz-corpus.sh" >&2
    exit 1
  }
  echo "fuzz-corpus.sh: $corpus is what this script makes"
  exit 0
fi
for t in $targets; do
  echo "$t: $(find "$out/$t" -type f | wc -l) files"
done
