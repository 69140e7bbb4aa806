#!/usr/bin/env python3
"""Builds dictionaries/touch-sample.tsv from the repository's sample texts (traces/text/*.txt).

Words are lower-cased runs of the letters a-z with inner apostrophes or hyphens; words with
other letters (Cyrillic, accented) are left out because the touch model's sample scenario
types on the QWERTY layer. Output: keysim dictionary format, sorted by count descending,
then word ascending. Usage: python3 dictionaries/build-touch-sample.py > dictionaries/touch-sample.tsv
"""
import collections, glob, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
counts = collections.Counter()
for path in sorted(glob.glob(os.path.join(root, "traces", "text", "*.txt"))):
    text = open(path, encoding="utf-8").read().lower()
    for token in re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", text):
        token = token.replace("’", "'")
        if re.fullmatch(r"[a-z]+(?:['-][a-z]+)*", token):
            counts[token] += 1
entries = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
out = sys.stdout
out.write("# keysim dictionary 1\n# language: en\n")
out.write("# source: the repository's sample texts traces/text/*.txt (written for keysim)\n")
out.write(f"# tokens: {sum(counts.values())}\n")
for word, count in entries:
    out.write(f"{word}\t{count}\n")
