#!/usr/bin/env python3
"""Renders a Markdown file to HTML as GitHub would (CommonMark with GFM tables), with
markdown-it-py, so a test can check what a reader sees.

    python3 render_markdown.py FILE.md

Prints the HTML on standard output; exit status 2 when the `markdown-it-py` package
(pip install markdown-it-py) is missing.
"""
import sys

try:
    from markdown_it import MarkdownIt
except ImportError as error:  # pragma: no cover - reported to the test
    sys.stderr.write("render_markdown.py: the markdown-it-py Python package is missing (%s); "
                     "install it with: python3 -m pip install markdown-it-py\n" % error)
    sys.exit(2)


def main(path):
    with open(path, encoding="utf-8") as source:
        sys.stdout.write(MarkdownIt("commonmark").enable("table").render(source.read()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
