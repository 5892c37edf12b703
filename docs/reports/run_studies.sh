#!/usr/bin/env bash
# Regenerates every committed balance study in docs/reports/ (about three hours on one core,
# most of it the studies with search bots: wasserloch-strongest about 70 minutes,
# seven-waters-strongest 40, wildwasser-strongest 30, on a shared machine; each report's run
# line says what it took).  LAB_JOBS=1 keeps it to one core.
#   docs/reports/run_studies.sh            # all studies
#   docs/reports/run_studies.sh watten     # only the studies whose name contains "watten"
# A report alone (its layout or wording changed, not the games) is written again in seconds,
# without playing: .venv/bin/wasserspiele lab render docs/reports/NAME
set -euo pipefail
cd "$(dirname "$0")/../.."
LAB=".venv/bin/wasserspiele lab"
ALL_TIPS="heuristic heuristic:avoid_second_card=0 heuristic:keep_pairs=0 heuristic:grow_herds=0 heuristic:watch_eights=0 heuristic:avoid_second_card=0,keep_pairs=0,grow_herds=0,watch_eights=0"
run() {
  local name=$1; shift
  if [[ -n "${ONLY:-}" && "$name" != *"$ONLY"* ]]; then return; fi
  echo "== $name ($(date -u +%H:%M:%S))"
  $LAB "$@" --seed 7 --out "docs/reports/$name" --quiet ${LAB_JOBS:+--jobs "$LAB_JOBS"}
}
ONLY=${1:-}
run wasserloch-seats-rounds wasserloch --players 2,3,4 --compare rounds=1,3 --games 1000
run wasserloch-chase        wasserloch --players 2,3,4 --option rounds=1 --compare chase=nearest,adjacent --games 2000
run wasserloch-tips         wasserloch --players 2,3,4 --option rounds=1 --bots "$ALL_TIPS" --games 3000
run wasserloch-tips-stronger wasserloch --players 3 --option rounds=1 --games 3000 --bots "heuristic heuristic:avoid_second_card=1.4 heuristic:keep_pairs=2 heuristic:grow_herds=2 heuristic:watch_eights=2"
run wasserloch-10000-rounds wasserloch --option rounds=1 --games 10000
run wasserloch-ismcts       wasserloch --players 3 --option rounds=1 --bots "ismcts:iterations=200 heuristic" --games 600
run wasserloch-strongest    wasserloch --players 2,3,4 --option rounds=1 --compare chase=nearest,adjacent --bots hard --games 1000
run seven-waters-slide-limit seven_waters --compare slide_limit=7,null --games 2000
run seven-waters-final-turns seven_waters --compare final_turns=both,opponent_only,none --games 2000
run watten-raising          watten --compare raising=false,true --games 600
run wildwasser-river-flow   wildwasser --players 2,4,6 --compare river_flow=forward,back --games 300
run wildwasser-2p-seats     wildwasser --players 2 --games 3000
# follow-up of wasserloch-tips: the bot that follows only the first tip, played (about 2 minutes)
run wasserloch-first-tip    wasserloch --players 3 --option rounds=1 --games 3000 --bots "heuristic heuristic:keep_pairs=0,grow_herds=0,watch_eights=0"
# the `hard` level (ISMCTS, 200 iterations a decision) in every seat; Seven Waters names 200 iterations
# as `ismcts:iterations=200` (its `hard` is 200 iterations with numba but 40 without, the manifest's
# `python_levels`, and a level's CPU safety net can fire on a busy machine, after which the games
# would not repeat).  Watten was stopped at 60 of 200 games (Ctrl-C)
# in every seat: about 3 hours on one core; read the intervals, the samples are still modest
run watten-strongest        watten --bots ismcts:iterations=200,cpu_seconds=1.0 --games 60  # `hard` when it was made
run seven-waters-strongest  seven_waters --bots ismcts:iterations=200 --games 800
run wildwasser-strongest    wildwasser --players 3 --bots hard --games 800
