#!/usr/bin/env bash
# make fuzz: builds keysim's libFuzzer executable (Fuzz/KeysimFuzz) and runs each of its targets for FUZZ_SECONDS seconds
# (default 30) on a seed corpus made of the bundled files and Fuzz/regressions/. A crash
# stops with the input saved under .build/fuzz/crashes/TARGET/: fix the bug, then add the
# input to Fuzz/regressions/TARGET/ so that FuzzRegressionTests keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
seconds=${FUZZ_SECONDS:-30}
build=.build/fuzz
targets=(${FUZZ_TARGETS:-FuzzJSON5 FuzzTraceLine FuzzZstd FuzzWAV FuzzScenario FuzzSweepSet FuzzCalibration})

# Seeds from the bundled files, small enough for thousands of runs a second: scenarios
# whole, traces as their first 40 lines (and, compressed, for the zstd reader), clips whole,
# and a sweep's --set arguments.
seed() {
    local target=$1 corpus=$2
    case $target in
        FuzzJSON5|FuzzScenario) cp scenarios/*.json5 "$corpus/" ;;
        FuzzTraceLine) for f in traces/*.jsonl; do head -40 "$f" > "$corpus/$(basename "$f")"; done ;;
        FuzzZstd)
            if command -v zstd > /dev/null; then
                for f in traces/*.jsonl; do head -40 "$f" | zstd -q -c > "$corpus/$(basename "$f").zst"; done
            else
                cp dictionaries/source/*.zst "$corpus/"
            fi ;;
        FuzzWAV) cp traces/clips/*.wav "$corpus/" ;;
        # --set arguments, one a line: the README's sweeps (the regressions add the extremes).
        FuzzSweepSet) printf 'debounce.otherwiseMs=250..5000/250\ndebounce.sentenceEndMs=200,400\n' > "$corpus/readme-sweep.txt" ;;
    esac
}

KEYSIM_FUZZ=1 "$SWIFT" build --build-path "$build" --product KeysimFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
failed=()
for target in "${targets[@]}"; do
    corpus="$build/corpus/$target" crashes="$build/crashes/$target/"
    mkdir -p "$corpus" "$crashes"
    seed "$target" "$corpus"
    if [ -d "Fuzz/regressions/$target" ]; then cp Fuzz/regressions/"$target"/* "$corpus/" 2>/dev/null || true; fi
    echo "fuzz $target: $seconds s on $(ls "$corpus" | wc -l) inputs"
    # FoundationXML leaks the error object of every malformed document it parses (72 bytes
    # from _CFErrorCreateFromXMLInterface): not keysim's leak, so not looked for there.
    leaks=1; [ "$target" = FuzzCalibration ] && leaks=0
    if ! ASAN_OPTIONS=detect_leaks=$leaks KEYSIM_FUZZ_TARGET="$target" "$build/debug/KeysimFuzz" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 -detect_leaks=$leaks \
            -print_final_stats=1 -artifact_prefix="$crashes" "$corpus" > "$build/$target.log" 2>&1; then
        failed+=("$target")
        tail -30 "$build/$target.log"
    else
        grep -E "stat::number_of_executed_units|Done " "$build/$target.log" | sed "s/^/  $target: /"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${failed[*]} found a crash (inputs in $build/crashes/)" >&2
    exit 1
fi
echo "fuzz: every target ran clean for $seconds s"
