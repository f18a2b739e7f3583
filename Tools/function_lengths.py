#!/usr/bin/env python3
"""Lists the functions in Sources/ longer than the limits the project keeps, longest first; exits 1 when
there is any.

    python3 Tools/function_lengths.py [--all] [--limit N]

A function is a `func`, `init`, `deinit`, `subscript` or a computed property's accessor block, from the
line of its name to its closing brace. Its body's braces are matched with strings and comments skipped.
Limits: 80 lines; 60 in Viewer and TerminalUI. Generated text templates (a file whose first line says
`// Generated`) are excepted.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DECLARATION = re.compile(r"^\s*(?:(?:@\w+(?:\([^)]*\))?|public|private|fileprivate|internal|package|static|class|"
                         r"final|override|mutating|nonmutating|nonisolated|convenience|required|dynamic|"
                         r"consuming|borrowing|open)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])")
STRICT_TARGETS = ("Viewer", "TerminalUI")


def strip_code(text):
    """The text with string literals and comments replaced by spaces, line breaks kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = skip_string(text, i)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(text, i):
    """The index after the string literal starting at i (plain, multi-line, raw `#"…"#`)."""
    hashes = 0
    while i - hashes - 1 >= 0 and text[i - hashes - 1] == "#":
        hashes += 1
    closer = ('"""' if text.startswith('"""', i) else '"') + "#" * hashes
    j = i + (3 if closer.startswith('"""') else 1)
    depth = 0  # interpolation parentheses
    while j < len(text):
        if hashes == 0 and text[j] == "\\" and j + 1 < len(text):
            if text[j + 1] == "(":
                depth += 1
                j += 2
                continue
            j += 2
            continue
        if depth and text[j] == "(":
            depth += 1
        elif depth and text[j] == ")":
            depth -= 1
        elif depth and text[j] == '"':
            j = skip_string(text, j)
            continue
        elif not depth and text.startswith(closer, j):
            return j + len(closer)
        elif not depth and closer == '"' and text[j] == "\n":
            return j
        j += 1
    return j


def functions(path):
    """(first line, line count, name) of each function with a body in the file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.startswith("// Generated"):
        return []
    code = strip_code(text)
    lines = code.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    found = []
    for number, line in enumerate(lines):
        m = DECLARATION.match(line)
        if not m:
            continue
        start = offsets[number] + m.start(1)
        depth, parens, j = 0, 0, start
        open_at = None
        while j < len(code):
            ch = code[j]
            if open_at is None and ch in "([":
                parens += 1  # a parameter's default closure is not the body
            elif open_at is None and ch in ")]":
                parens -= 1
            elif ch == "{" and (open_at is not None or parens == 0):
                if open_at is None:
                    open_at = j
                depth += 1
            elif ch == "}" and open_at is not None:
                depth -= 1
                if open_at is not None and depth == 0:
                    break
            elif ch == "\n" and open_at is None and code[offsets[number]:j].count("(") <= code[offsets[number]:j].count(")") \
                    and not code[j + 1:j + 200].lstrip().startswith(("{", "->", "throws", "where", "async", "rethrows")) \
                    and not code[offsets[number]:j].rstrip().endswith((",", "(", "->", "throws", "async")):
                break  # a requirement without a body
            j += 1
        if open_at is None:
            continue
        last = code.count("\n", 0, j)
        found.append((number + 1, last - number + 1, m.group(1).split("(")[0].strip()))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="list every function over 60 lines")
    args = parser.parse_args()
    over = []
    count = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "Sources", "**", "*.swift"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        target = rel.split(os.sep)[1]
        limit = 60 if target in STRICT_TARGETS else 80
        for line, length, name in functions(path):
            count += 1
            if length > limit or (args.all and length > 60):
                over.append((length, f"{rel}:{line}", name, limit))
    over.sort(reverse=True)
    for length, where, name, limit in over:
        print(f"{length:4} lines (limit {limit})  {where}  {name}")
    print(f"{count} functions; {sum(1 for o in over if o[0] > o[3])} over their limit")
    return 1 if any(o[0] > o[3] for o in over) else 0


if __name__ == "__main__":
    sys.exit(main())
