#!/bin/sh
# The keysim gate of a CI job (docs/ci.md): runs the baseline and the candidate with common
# random numbers, applies docs/ci/gates.json5 and the scenarios' budgets, and writes the
# JUnit file, the Markdown summary, the JSON verdict and the report into $KEYSIM_GATE_OUT.
#
#   docs/ci/gate.sh                                  # the example pair below
#   docs/ci/gate.sh BASELINE.json5 CANDIDATE.json5   # your pair
#   docs/ci/gate.sh SCENARIO --policy A --policy B   # two policies of one scenario
#
# Exit code: keysim gate's — 0 every check holds, 1 a check failed, 2 bad input.
set -eu
KEYSIM="${KEYSIM:-.build/release/keysim}"
OUT="${KEYSIM_GATE_OUT:-keysim-gate}"
SUMMARY="${GITHUB_STEP_SUMMARY:-$OUT/summary.md}"
mkdir -p "$OUT"
if [ "$#" -eq 0 ]; then
    # The example: moving the local checker off the main thread, gated against keeping it there.
    set -- scenarios/checker-on-main.json5 --policy on-main --policy background
fi
"$KEYSIM" --version
"$KEYSIM" gate "$@" \
    --set 'traces=["../traces/fast-typist.jsonl"]' \
    --rules docs/ci/gates.json5 \
    --replications auto --max-replications 20 --precision 10% \
    --db "$OUT/report.sqlite" --junit "$OUT/junit.xml" --summary "$SUMMARY" --json > "$OUT/gate.json"
