#!/bin/sh
# koma-match leaves no process of a USI engine behind (docs/ai.md#usi-seats):
# the engine is drivers/fake_usi_engine.sh in its orphan mode, which starts a
# child, ignores quit and waits for the child, run as `sh FAKE orphan ...; :`
# so that the shell cannot exec it and stays its parent. Each engine appends
# its process id and its child's to a file; afterwards none of those
# processes may remain (a zombie, dead but not yet reaped by whichever
# process inherited it, counts as gone).
#
#   sh engines_gone.sh end    KOMA_MATCH VARIANT FAKE WORK
#       a match of 2 games, the engine resigning at once: it exits 0 and
#       2 engines ran
#   sh engines_gone.sh signal KOMA_MATCH VARIANT FAKE WORK
#       a match whose engine never answers, ended by SIGTERM once the engine
#       has started: koma-match ends by that signal
set -u
how=$1 match=$2 variant=$3 fake=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
pids=$work/pids
fail() {
  echo "engines_gone.sh $how: $*" >&2
  exit 1
}

case "$how" in
  end)
    "$match" --variant "$variant" --seats o,easy --games 2 --usi-timeout 5 \
      "--usi=o=sh $fake orphan $pids; :" > "$work/out" 2>&1 || fail "koma-match failed: $(cat "$work/out")"
    [ "$(wc -l < "$pids")" -eq 2 ] || fail "expected 2 engines, the file lists: $(cat "$pids")" ;;
  signal)
    "$match" --variant "$variant" --seats o,easy --games 1 --usi-timeout 600 \
      "--usi=o=sh $fake orphan $pids silent; :" > "$work/out" 2>&1 &
    match_pid=$!
    # Waits for the engine to start (an event, not a time: the limit only
    # keeps a broken run from hanging).
    tries=0
    until [ -s "$pids" ]; do
      tries=$((tries + 1))
      [ $tries -le 600 ] || fail "the engine did not start"
      sleep 0.1
    done
    kill -TERM "$match_pid"
    wait "$match_pid"
    status=$?
    [ $status -eq 143 ] || fail "koma-match exited $status, not 143 (ended by SIGTERM)" ;;
  *) fail "unknown test" ;;
esac

left=""
for pid in $(cat "$pids"); do
  state=$(ps -o stat= -p "$pid" 2>/dev/null)
  case "$state" in
    "" | Z*) ;;
    *) left="$left $pid ($(ps -o args= -p "$pid"))" ;;
  esac
done
if [ -n "$left" ]; then
  kill $(cat "$pids") 2>/dev/null
  fail "processes of the engine left running:$left"
fi
exit 0
