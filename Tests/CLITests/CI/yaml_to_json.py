#!/usr/bin/env python3
"""Parses a YAML file (a CI workflow) with PyYAML's safe loader and prints it as JSON, so the
Swift tests (CIWorkflowTests) check the workflow's structure, not only its text.

    python3 yaml_to_json.py FILE.yml

Exit status 0 with the JSON on standard output; 1 when the file is not valid YAML; 2 when
PyYAML (pip install pyyaml) is missing.
"""
import json
import sys

try:
    import yaml
except ImportError as error:  # pragma: no cover - reported to the test
    sys.stderr.write("yaml_to_json.py: the PyYAML package is missing (%s); install it with: python3 -m pip install pyyaml\n" % error)
    sys.exit(2)

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: yaml_to_json.py FILE.yml\n")
        sys.exit(2)
    try:
        document = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
    except yaml.YAMLError as error:
        sys.stderr.write("%s: %s\n" % (sys.argv[1], error))
        sys.exit(1)
    # YAML 1.1 reads a bare `on:` key as the boolean true: keep GitHub's name for it.
    if isinstance(document, dict) and True in document:
        document["on"] = document.pop(True)
    json.dump(document, sys.stdout)
    sys.stdout.write("\n")
