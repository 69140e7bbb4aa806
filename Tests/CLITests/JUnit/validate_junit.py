#!/usr/bin/env python3
"""Validates JUnit XML files against junit-10.xsd beside this script (see README.md).

    python3 validate_junit.py FILE.xml...

Exit status 0 when every file is valid; 1 with each violation on standard error; 2 when the
`xmlschema` package (pip install xmlschema) is missing.
"""
import os
import sys

try:
    import xmlschema
except ImportError as error:  # pragma: no cover - reported to the test
    sys.stderr.write("validate_junit.py: the xmlschema Python package is missing (%s); "
                     "install it with: python3 -m pip install xmlschema\n" % error)
    sys.exit(2)


def main(paths):
    schema = xmlschema.XMLSchema10(os.path.join(os.path.dirname(os.path.abspath(__file__)), "junit-10.xsd"))
    failed = False
    for path in paths:
        for error in schema.iter_errors(path):
            failed = True
            sys.stderr.write("%s: %s\n" % (path, error.reason or error))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: validate_junit.py FILE.xml...\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
