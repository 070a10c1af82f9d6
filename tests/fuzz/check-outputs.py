#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that a file of `ibproof report` parses in its own grammar.

    check-outputs.py FORMAT FILE      # exit 0, or 1 with why on stderr
    check-outputs.py --serve          # lines "FORMAT FILE" on stdin; each
                                      # answered "ok" or "FAIL why" on stdout

FORMAT is one of:
  json   strict JSON (Python's json, as `python3 -m json.tool` reads it),
         without NaN or Infinity, in UTF-8
  csv    RFC 4180 (Python's csv, strict): every row as wide as the header;
         no cell a spreadsheet would run as a formula (OWASP: = + - @ TAB
         CR first), numbers aside
  prom   the Prometheus text exposition format, line by line: # HELP and
         # TYPE lines, samples name{label="value",...} value [timestamp]
  html   UTF-8 without control characters (C0 but TAB/LF/CR, DEL, C1) or
         non-characters; tags balanced; no raw '>' or '&' in text
  text   terminal text: UTF-8 without controls but TAB/LF, without C1 or
         bidi controls
The fuzz target tests/fuzz/fuzz_report_formats.c runs it as a server.
Python 3 standard library only.
"""
import csv
import html.parser
import json
import re
import sys

NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
METRIC = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
LVALUE = r'"(?:[^"\\\n]|\\[\\"n])*"'
PROM_VALUE = r"(?:[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?Inf|NaN)"
SAMPLE = re.compile(
    r"^(%s)(\{(%s=%s(,%s=%s)*,?)?\})? %s( -?\d+)?$"
    % (METRIC, LABEL, LVALUE, LABEL, LVALUE, PROM_VALUE))
HELP = re.compile(r"^# HELP (%s) (?:[^\\\n]|\\[\\n])*$" % METRIC)
TYPE = re.compile(r"^# TYPE (%s) (counter|gauge|histogram|summary|untyped)$"
                  % METRIC)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "param", "source", "track", "wbr"}
# Regular expressions, not a Python loop a character (a 15 KB page took
# 4 ms that way, each report the fuzz target wrote); a class that names
# code points above the BMP is slow in Python's re, so those are found
# first (any) and then tested one by one.
# HTML: C0 but TAB/LF/CR, DEL and C1, non-characters (U+FDD0..U+FDEF and
# the last two code points of every plane).
BAD_HTML_BMP = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
ASTRAL = re.compile("[\U00010000-\U0010ffff]")
# Terminal text: C0 but TAB/LF, DEL and C1, the bidi embeddings,
# overrides and isolates.
BAD_TEXT = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class Bad(Exception):
    pass


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Bad("not UTF-8 at byte %d" % e.start)


def where(text, i):
    return "line %d" % (text.count("\n", 0, i) + 1)


def check_json(path):
    def constant(name):
        raise Bad("%s is not JSON" % name)
    try:
        json.loads(read_text(path), parse_constant=constant)
    except json.JSONDecodeError as e:
        raise Bad("invalid JSON: %s" % e)


def check_csv(path):
    text = read_text(path)
    rows = list(csv.reader(text.splitlines(keepends=True), strict=True))
    if not rows:
        raise Bad("no header")
    for n, row in enumerate(rows[1:], 2):
        if len(row) != len(rows[0]):
            raise Bad("row %d: %d fields under a header of %d"
                      % (n, len(row), len(rows[0])))
        for cell in row:
            if cell and cell[0] in "=+-@\t\r" and not NUMBER.match(cell):
                raise Bad("row %d: cell %r runs as a formula" % (n, cell))


def check_prom(path):
    for n, line in enumerate(read_text(path).split("\n"), 1):
        if not line:
            continue
        if line.startswith("# HELP "):
            ok = HELP.match(line)
        elif line.startswith("# TYPE "):
            ok = TYPE.match(line)
        elif line.startswith("#"):
            ok = True
        else:
            ok = SAMPLE.match(line)
        if not ok:
            raise Bad("line %d: not exposition format: %r" % (n, line[:200]))


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            raise Bad("</%s> closes <%s>" % (
                tag, self.stack[-1] if self.stack else "nothing"))
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] in ("script", "style"):
            if "</" in data:
                raise Bad("'</' inside <%s>" % self.stack[-1])
            return
        for c in "<>&":
            if c in data:
                raise Bad("raw %r in text: %r" % (c, data[:80]))


def check_html(path):
    text = read_text(path)
    m = BAD_HTML_BMP.search(text)
    for a in ASTRAL.finditer(text, 0, m.start() if m else len(text)):
        if ord(a.group()) & 0xfffe == 0xfffe:
            m = a
            break
    if m:
        raise Bad("%s: control or non-character U+%04X"
                  % (where(text, m.start()), ord(m.group())))
    p = Tags()
    p.feed(text)
    p.close()
    if p.stack:
        raise Bad("unclosed <%s>" % ">, <".join(p.stack))


def check_text(path):
    text = read_text(path)
    m = BAD_TEXT.search(text)
    if m:
        raise Bad("%s: terminal control U+%04X"
                  % (where(text, m.start()), ord(m.group())))


CHECKS = {"json": check_json, "csv": check_csv, "prom": check_prom,
          "html": check_html, "text": check_text}


def check(fmt, path):
    try:
        CHECKS[fmt](path)
    except Bad as e:
        return "%s %s: %s" % (fmt, path, e)
    except (csv.Error, OSError, KeyError, ValueError) as e:
        return "%s %s: %s: %s" % (fmt, path, type(e).__name__, e)
    return None


def main():
    if sys.argv[1:] == ["--serve"]:
        for line in sys.stdin:
            fmt, _, path = line.rstrip("\n").partition(" ")
            why = check(fmt, path)
            sys.stdout.write("ok\n" if why is None else
                             "FAIL %s\n" % why.replace("\n", " "))
            sys.stdout.flush()
        return 0
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    why = check(sys.argv[1], sys.argv[2])
    if why:
        sys.stderr.write(why + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
