"""PyYAML's own parser's errors in LibYAML's words, so that a file gets the same message from either.

The checker reads scenarios with LibYAML's parser where PyYAML has it (its wheels do); where it has not (the
website's engine, in the browser) PyYAML's Python parser reads them. The two were written together and refuse the same
texts at the same places, but word their problems differently ("mapping values are not allowed here" against "...in
this context"), and PyYAML names the token it found where LibYAML does not. Each of PyYAML's problems is given
LibYAML's words for the same check; ``context`` tells apart the checks PyYAML words alike.
"""

from __future__ import annotations

import re

_ANY = r".*"
#: (PyYAML's problem, the start of its context or "" for any, LibYAML's words), the first that matches applies.
_WORDS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple((re.compile(pattern, re.S), context, words) for pattern, context, words in (
    (f"found character {_ANY} that cannot start any token", "", "found character that cannot start any token"),
    ("mapping values are not allowed here", "", "mapping values are not allowed in this context"),
    ("sequence entries are not allowed here", "", "block sequence entries are not allowed in this context"),
    ("mapping keys are not allowed here", "", "mapping keys are not allowed in this context"),
    (f"expected alphabetic or numeric character, but found {_ANY}", "while scanning a directive",
     "could not find expected directive name"),
    (f"expected alphabetic or numeric character, but found {_ANY}", "", "did not find expected alphabetic or numeric character"),
    (f"expected a digit or '.', but found {_ANY}", "", "did not find expected digit or '.' character"),
    (f"expected a digit or ' ', but found {_ANY}", "", "did not find expected digit or '.' character"),
    (f"expected a digit, but found {_ANY}", "", "did not find expected version number"),
    (f"expected ' ', but found {_ANY}", "while scanning a directive", "did not find expected whitespace"),
    (f"expected ' ', but found {_ANY}", "", "did not find expected whitespace or line break"),
    (f"expected a comment or a line break, but found {_ANY}", "", "did not find expected comment or line break"),
    (f"expected chomping or indentation indicators, but found {_ANY}", "", "did not find expected comment or line break"),
    ("expected indentation indicator in the range 1-9, but found 0", "", "found an indentation indicator equal to 0"),
    (f"expected '>', but found {_ANY}", "", "did not find the expected '>'"),
    (f"expected escape sequence of [0-9]+ hexadecimal numbers, but found {_ANY}", "", "did not find expected hexdecimal number"),
    (f"found unknown escape character {_ANY}", "", "found unknown escape character"),
    ("found unexpected document separator", "", "found unexpected document indicator"),
    (f"expected '!', but found {_ANY}", "", "did not find expected '!'"),
    (f"expected URI, but found {_ANY}", "", "did not find expected tag URI"),
    (f"expected URI escape sequence of 2 hexadecimal numbers, but found {_ANY}", "", "did not find URI escaped octet"),
    (f"expected '<document start>', but found {_ANY}", "", "did not find expected <document start>"),
    ("found duplicate YAML directive", "", "found duplicate %YAML directive"),
    (r"found incompatible YAML document \(version 1\.\* is required\)", "", "found incompatible YAML document"),
    (f"duplicate tag handle {_ANY}", "", "found duplicate %TAG directive"),
    (f"found undefined tag handle {_ANY}", "", "found undefined tag handle"),
    (f"expected the node content, but found {_ANY}", "", "did not find expected node content"),
    (f"expected <block end>, but found {_ANY}", "while parsing a block collection", "did not find expected '-' indicator"),
    (f"expected <block end>, but found {_ANY}", "while parsing a block mapping", "did not find expected key"),
    (f"expected ',' or ']', but got {_ANY}", "", "did not find expected ',' or ']'"),
    (f"expected ',' or '}}', but got {_ANY}", "", "did not find expected ',' or '}'"),
    ("special characters are not allowed", "", "control characters are not allowed"),
))


#: LibYAML places this problem a character earlier than PyYAML: at the escape's backslash, not the letter after it.
AT_THE_BACKSLASH = "found unknown escape character"


def libyaml_words(problem: str, context: str | None) -> str:
    """What LibYAML says where PyYAML's parser says ``problem`` (``context``: what it was reading)."""
    for pattern, wanted, words in _WORDS:
        if pattern.fullmatch(problem) and (context or "").startswith(wanted):
            return words
    return problem
