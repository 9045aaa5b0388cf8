"""Syntax colouring of Python text for a terminal: ANSI escapes chosen from the stdlib tokenizer.

``highlight(text)`` colours keywords, names being defined, strings, numbers and comments; the
``# file.py:LINE`` comments that end generated lines are dimmed like any comment. Text the tokenizer
cannot read as a whole (an intermediate-stage listing) is coloured line by line, and a line it
cannot read at all is left plain.
"""
from __future__ import annotations

import io
import keyword
import os
import sys
import tokenize

RESET = "\033[0m"
_STYLES = {
    "keyword": "\033[1;35m",     # bold magenta
    "definition": "\033[1;34m",  # bold blue: the name after def / class
    "string": "\033[32m",        # green
    "number": "\033[36m",        # cyan
    "comment": "\033[2;37m",     # dim
}
_STRING_TOKENS = {tokenize.STRING} | {getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE",
                                                                     "FSTRING_END") if hasattr(tokenize, n)}


def use_color(stream, disabled: bool) -> bool:
    """Whether to colour output to ``stream``.

    No with ``--no-color`` or ``NO_COLOR`` set; otherwise yes with ``FORCE_COLOR`` set (to anything
    non-empty) or on a terminal.
    """
    if disabled or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream or sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def highlight(text: str) -> str:
    """``text`` with ANSI colours for a terminal (unchanged when it does not tokenize)."""
    try:
        return _paint(text, tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return "".join(highlight_line(line) for line in text.splitlines(keepends=True))


def highlight_line(line: str) -> str:
    """One line coloured on its own (its indentation kept), or unchanged if it does not tokenize."""
    body = line.lstrip(" \t")
    indent = line[:len(line) - len(body)]
    try:
        return indent + _paint(body, tokenize.generate_tokens(io.StringIO(body).readline))
    except (tokenize.TokenError, SyntaxError):
        return line


def _paint(text: str, tokens) -> str:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(position):
        row, col = position
        return starts[row - 1] + col if row - 1 < len(starts) else len(text)

    spans = []
    previous = None
    for token in tokens:
        style = _style(token, previous)
        if style is not None and token.string:
            spans.append((offset(token.start), offset(token.end), _STYLES[style]))
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token
    out, at = [], 0
    for start, end, code in spans:
        out.append(text[at:start])
        out.append(code + text[start:end] + RESET)
        at = end
    out.append(text[at:])
    return "".join(out)


def _style(token, previous) -> str | None:
    if token.type == tokenize.NAME:
        if previous is not None and previous.type == tokenize.NAME and previous.string in ("def", "class"):
            return "definition"
        return "keyword" if keyword.iskeyword(token.string) else None
    if token.type in _STRING_TOKENS:
        return "string"
    if token.type == tokenize.NUMBER:
        return "number"
    if token.type == tokenize.COMMENT:
        return "comment"
    return None
