#!/bin/sh
# (Re)generates the seed corpora of the fuzz targets, tests/fuzz/corpus/<target>/,
# from the shipped variants, tests/data/*.jsonl, the USI sessions of
# tests/drivers and examples from the docs. Files named crash-* (inputs that
# once crashed a target or broke a round trip, kept as regression seeds) and
# seed-* (hand-written seeds, e.g. descriptors that switch on unusual rules)
# are left alone; every other file is rewritten.
#   sh scripts/fuzz-corpus.sh
set -e
cd "$(dirname "$0")/.."
out=tests/fuzz/corpus
data=tests/data
for t in descriptor position sfen move usi record; do
  mkdir -p "$out/$t"
  find "$out/$t" -type f ! -name 'crash-*' ! -name 'seed-*' -delete
done

# The targets pick a shipped variant by an input byte, in this order
# (tests/fuzz/fuzz_support.hpp): 0 shogi, 1 yonin, 2 yonin-king-capture,
# 3 yonin-inherit, 4 shipley-team-orthogonal, 5 shipley-team-diagonal,
# 6 shipley-individual, 7 shipley-kings.
byte() { printf "\\$(printf '%03o' "$1")"; }
mode_index() {
  case "$1" in
    standard | standard-pdm-allowed) echo 1 ;;
    king_capture) echo 2 ;;
    inherit) echo 3 ;;
    team_orthogonal) echo 4 ;;
    team_diagonal) echo 5 ;;
    individual) echo 6 ;;
    kings) echo 7 ;;
  esac
}
# A JSON string field of a JSON Lines record (no escapes occur in these files).
field() { sed -n "s/.*\"$1\": \"\\([^\"]*\\)\".*/\\1/p"; }

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

# --- position: start positions and the positions of the test data, each
# behind its variant's byte.
{ byte 0; printf 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'; } >"$out/position/0-start-sfen"
yonin='2S3G3K3G3S32/3P3R3P33/S23P33S4/G2P25P4G4/K2R2P23P4R4K4/G2P25P4G4/S23P13S4/3P1R1P13/2S1G1K1G1S12 1 - 1 -'
shipley='***L1N1S1G1K1G1S1N1L1***/***1R15B11***/***P1P1P1P1P1P1P1P1P1***/L41P49P21L2/N4R4P49P2B2N2/S41P49P21S2/G41P49P21G2/K41P49P21K2/G41P49P21G2/S41P49P21S2/N4B4P49P2R2N2/L41P49P21L2/***P3P3P3P3P3P3P3P3P3***/***1B35R31***/***L3N3S3G3K3G3S3N3L3*** 1 - 1 -'
for i in 1 2 3; do { byte $i; printf '%s' "$yonin"; } >"$out/position/$i-start"; done
for i in 4 5 6 7; do { byte $i; printf '%s' "$shipley"; } >"$out/position/$i-start"; done
n=0
for f in "$data"/yonin-positions.jsonl "$data"/shipley-positions.jsonl; do
  while IFS= read -r line; do
    n=$((n + 1))
    mode=$(printf '%s\n' "$line" | field mode)
    { byte "$(mode_index "$mode")"; printf '%s\n' "$line" | field position | tr -d '\n'; } \
      >"$out/position/data-$n"
  done <"$f"
done
n=0
while IFS= read -r line; do
  n=$((n + 1))
  sfen=$(printf '%s\n' "$line" | field sfen)
  { byte 0; printf '%s' "$sfen"; } >"$out/position/sfen-$n"
  printf '%s' "$sfen" >"$out/sfen/rule-edge-$n"
done <"$data/shogi-rule-edges.jsonl"

# --- sfen: docs' examples besides the rule edges.
printf 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' >"$out/sfen/start"
printf 'lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4' >"$out/sfen/horse"
printf '4k4/9/4P4/9/9/9/9/9/4K4 b G 1' >"$out/sfen/mate"
printf '8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124' >"$out/sfen/midgame"

# --- move: the fixed positions of tests/fuzz/move.cpp (by index) with moves
# that are legal there, then some that are not.
{ byte 0; printf '7g7f 3c3d 8h2b+ 3a2b B*4e 4a3b 4e3d+ resign'; } >"$out/move/0-shogi"
{ byte 1; printf '3a2b 2b3c B*5e 7a6b 7g7f7e P*5a 5c5d win'; } >"$out/move/1-horse"
{ byte 2; printf '5c4b P*1b 5i5h P*5b 4a4b+'; } >"$out/move/2-edges"
n=0
for f in "$data"/yonin-games.jsonl "$data"/shipley-games.jsonl; do
  while IFS= read -r line; do
    n=$((n + 1))
    [ $n -le 4 ] || [ "$f" = "$data/shipley-games.jsonl" ] || continue
    mode=$(printf '%s\n' "$line" | field mode)
    case "$mode" in
      standard) index=3 ;;
      individual) index=10 ;;
      kings) index=11 ;;
      *) continue ;;
    esac
    moves=$(printf '%s\n' "$line" | sed 's/.*"moves": \[\([^]]*\)\].*/\1/; s/[",]//g' |
      tr -s ' ' '\n' | head -n 60 | tr '\n' ' ')
    { byte $index; printf '%s' "$moves"; } >"$out/move/game-$n"
  done <"$f"
done
{ byte 4; printf '3a2b 8g8f 4c4d B*5e 2g2f+'; } >"$out/move/4-yonin"
{ byte 8; printf 'h13h12 a8b8 P*h8 m14m13 resign'; } >"$out/move/8-shipley"

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
for t in descriptor position sfen move usi record; do
  echo "$t: $(find "$out/$t" -type f | wc -l) files"
done
