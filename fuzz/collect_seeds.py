#!/usr/bin/env python3
"""Collects seed inputs for the text-format fuzz targets from the repository itself:

  master_file  every zone file under tests/zones/ (good, bad and $INCLUDE pieces)
  config_yaml  every ```yaml block of README.md and docs/*.md, and the YAML strings of the
               config and pool config unit tests (src/config/*_test.cpp)

Usage: fuzz/collect_seeds.py [OUT_DIR]   (default: fuzz/corpus next to this script)
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as handle:
        handle.write(data)


def zone_files(out):
    count = 0
    for base, _, files in os.walk(os.path.join(ROOT, "tests", "zones")):
        for file in sorted(files):
            relative = os.path.relpath(os.path.join(base, file), os.path.join(ROOT, "tests", "zones"))
            with open(os.path.join(base, file), "rb") as handle:
                write(out, "tests_zones_" + relative.replace(os.sep, "_") + ".zone", handle.read())
            count += 1
    return count


def c_string_literals(text):
    """The YAML-looking string literals of a C++ file: raw strings and runs of adjacent
    ordinary literals (decoded), keeping those that contain a mapping."""
    found = [m.group(1) for m in re.finditer(r'R"\((.*?)\)"', text, re.S)]
    for run in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', text):
        parts = re.findall(r'"((?:[^"\\\n]|\\.)*)"', run.group(0))
        joined = "".join(parts)
        try:
            joined = joined.encode("latin-1", "backslashreplace").decode("unicode_escape")
        except UnicodeDecodeError:
            continue
        found.append(joined)
    return [s for s in found if re.search(r"^\s*[a-z-]+:", s, re.M) and len(s) > 8]


def config_files(out):
    count = 0
    for doc in ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md")):
        with open(os.path.join(ROOT, doc)) as handle:
            text = handle.read()
        for i, block in enumerate(re.findall(r"```yaml\n(.*?)```", text, re.S)):
            write(out, f"{doc.replace('/', '_')}_{i + 1}.yaml", block.encode())
            count += 1
    for test in ("config_test.cpp", "pool_config_test.cpp"):
        with open(os.path.join(ROOT, "src", "config", test)) as handle:
            literals = c_string_literals(handle.read())
        for i, literal in enumerate(dict.fromkeys(literals)):
            write(out, f"{test.replace('.cpp', '')}_{i + 1}.yaml", literal.encode())
            count += 1
    return count


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    print("master_file:", zone_files(os.path.join(out, "master_file")))
    print("config_yaml:", config_files(os.path.join(out, "config_yaml")))


if __name__ == "__main__":
    main()
