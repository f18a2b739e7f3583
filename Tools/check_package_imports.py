#!/usr/bin/env python3
"""Package.swift lists exactly what each Swift target imports: prints each difference and exits 1.

    python3 Tools/check_package_imports.py

A target's imports are the modules its .swift files import; the toolchain's own modules (Foundation,
Glibc, Testing, ...) are not listed in Package.swift and are left out. C targets are not checked.
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TOOLCHAIN = {"Swift", "Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Testing", "XCTest",
             "Dispatch", "Synchronization", "PackageDescription", "_Concurrency"}
IMPORT = re.compile(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?(\w+)")
TARGET = re.compile(r'\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(.*?)\)(?=,\s*\n|\s*\n\s*\])', re.S)


def declared(package_text):
    """{target: (folder, listed dependencies)} from Package.swift's text, comments removed."""
    text = re.sub(r"//[^\n]*", "", package_text)
    targets = {}
    for kind, name, rest in TARGET.findall(text):
        deps = re.search(r"dependencies:\s*\[([^\]]*)\]", rest)
        folder = ("Tests/" if kind == "testTarget" else "Sources/") + name
        targets[name] = (folder, set(re.findall(r'"([^"]+)"', deps.group(1))) if deps else set())
    return targets


def imported(folder):
    modules = set()
    for path in glob.glob(os.path.join(ROOT, folder, "**", "*.swift"), recursive=True):
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = IMPORT.match(line)
                if m:
                    modules.add(m.group(1))
    return modules - TOOLCHAIN


def main():
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        targets = declared(f.read())
    if not targets:
        print("Package.swift: no targets found", file=sys.stderr)
        return 1
    differences = 0
    for name, (folder, listed) in sorted(targets.items()):
        if not glob.glob(os.path.join(ROOT, folder, "**", "*.swift"), recursive=True):
            continue  # a C target
        uses = imported(folder)
        for module in sorted(uses - listed):
            print(f"Package.swift: {name} imports {module} but does not list it", file=sys.stderr)
            differences += 1
        for module in sorted(listed - uses):
            print(f"Package.swift: {name} lists {module} but does not import it", file=sys.stderr)
            differences += 1
    print(f"Package.swift: {len(targets)} targets, {differences} differences from their imports")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
