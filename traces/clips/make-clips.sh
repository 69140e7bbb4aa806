#!/bin/sh
# Made the WAV clips of traces/dictation.jsonl; kept for provenance, not a build step (the
# clips are committed). Needs espeak-ng and sox (Debian: apt-get install espeak-ng sox).
# Each clip: espeak-ng's en-us voice at 165 words per minute, resampled to 16 kHz mono
# 16-bit PCM, with 0.4 s of silence before the speech and 0.3 s after it.
set -eu
cd "$(dirname "$0")"
say() {
    espeak-ng -v en-us -s 165 -w "$1.tmp.wav" "$2"
    sox "$1.tmp.wav" -r 16000 -c 1 -b 16 -e signed-integer "$1" pad 0.4 0.3
    rm "$1.tmp.wav"
}
say dictation-1.wav "I will be there in about ten minutes."
say dictation-2.wav "A flat white with oat milk, please."
say dictation-3.wav "See you soon."
