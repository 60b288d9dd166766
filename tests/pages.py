"""What the pages' test files use: the checks of the numbers in a page's prose,
and snippet modules imported lazily. Reading a page (its code blocks, its prose,
the nav) is tools/pages.py's; the names test files take from here are kept."""

from __future__ import annotations

import ast
import bisect
import contextlib
import functools
import importlib
import inspect
import io
import itertools
import operator
import re
import types
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from pathlib import Path

from tools.build import copy_sources  # noqa: F401 (test files take it from here)
from tools.pages import (  # noqa: F401 (the same)
    DOCS,
    NUMBER,
    NUMBER_START,
    PYTHON,
    ROOT,
    Block,
    compiled,
    nav_pages,
    read,
)
from tools.pages import expand as _expand
from tools.pages import prose_lines as _prose_lines

SNIPPETS = ROOT / "snippets"


class lazy:  # used like a module
    """The module `name`, imported when one of its names is first used.

    A snippet module computes when imported, and under pytest-xdist every worker
    collects every test file: this way only the worker that runs it pays. (Not
    importlib's LazyLoader: collecting looks at every name in a test file, which
    would import it then, and an error there leaves a half-run module.)"""

    __test__ = False  # pytest: no tests in here

    def __init__(self, name: str):
        self.lazy_name = name  # names no snippet module uses

    def lazy_module(self) -> types.ModuleType:
        return importlib.import_module(self.lazy_name)

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):  # pytest's questions while collecting
            raise AttributeError(attribute)
        return getattr(self.lazy_module(), attribute)


class on_page(lazy):  # used like a module
    """The snippet module `name` as docs/`page` runs it: a name the module's page
    section binds, and no later block of the page binds again, is read from the
    page's one run (tests/page_plugin.py), the run the page's output blocks are
    checked against, not from a second run of the module. Any other name (one
    bound in the module's hidden set-up, or rebound further down the page) comes
    from the module, imported then, as `lazy` does."""

    __test__ = False

    def __init__(self, page: str, name: str):
        super().__init__(name)
        self.page = DOCS / page

    def lazy_module(self):
        """The page's run; the module itself only if a name needs it."""
        return page_namespace(self.page)

    def imported(self) -> types.ModuleType:
        """The module itself, imported: for a test that patches it, or runs its
        code with a change (the page's run stays as the page printed it)."""
        return importlib.import_module(self.lazy_name)

    def __getattr__(self, attribute: str):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        if attribute in names_from_page(self.page, self.lazy_name):
            return page_namespace(self.page)[attribute]
        if source := hidden_source(self.lazy_name, attribute):  # where it came from
            module, name = source
            return getattr(on_page(self.page.name, module), name)
        with contextlib.redirect_stdout(io.StringIO()):  # not into a test's output
            return getattr(self.imported(), attribute)


def page_namespace(page: Path) -> dict:
    """docs/`page`'s namespace after all its Python blocks ran: its PageFile's, when
    pytest collected the page in this process, else a run of its own."""
    from tests.page_plugin import PAGE_FILES

    if page in PAGE_FILES:
        return PAGE_FILES[page].run_all()
    if page not in _OWN_RUNS:
        namespace = {"__name__": "__main__"}
        for block in read(page).blocks:
            if block.language in PYTHON and not block.marks:
                for code in compiled(block, f"{page.name}:{block.start}"):
                    exec(code, namespace)
        _OWN_RUNS[page] = namespace
    return _OWN_RUNS[page]


_OWN_RUNS: dict[Path, dict] = {}


def _bound(code: str) -> set[str]:
    """The global names a block of code binds (not those its functions do)."""
    names, todo = set(), list(ast.parse(code).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if not isinstance(node, ast.Lambda | ast.comprehension):
            todo += ast.iter_child_nodes(node)
    return names


@functools.cache
def names_from_page(page: Path, module: str) -> frozenset[str]:
    """The names `on_page` reads from the page's run: bound by what the page shows
    of the module (its sections, or the whole file), and by no block of the page
    after the last that shows it."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    name = path.relative_to(ROOT).as_posix()
    text = page.read_text(encoding="utf-8")
    sections = set(re.findall(rf'--8<-- "{re.escape(name)}(:[\w-]+)?"', text))
    shown = [_expand(f'--8<-- "{name}{section}"\n')[0] for section in sections]
    codes = [b.code for b in read(page).blocks if b.language in PYTHON]
    holding = [
        i for i, code in enumerate(codes) if any(p.strip() in code for p in shown)
    ]
    if not holding:
        return frozenset()
    later = set().union(*map(_bound, codes[holding[-1] + 1 :]))
    return frozenset(set().union(*map(_bound, shown)) - later)


@functools.cache
def hidden_source(module: str, attribute: str) -> tuple[str, str] | None:
    """The snippet module, and the name there, that `module` imports `attribute`
    from (`from snippets.… import name`), or None."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "snippets."
        ):
            for alias in node.names:
                if (alias.asname or alias.name) == attribute:
                    return node.module, alias.name
    return None


def import_lazy(namespace: dict) -> None:
    """Import every lazy module in `namespace` (a test file's globals), in order,
    or run the page an `on_page` module reads. tests/conftest.py calls it before
    each test file's first test."""
    for value in list(namespace.values()):
        if isinstance(value, lazy):
            value.lazy_module()


# a page read (tools/pages.py), its blocks, a block's language: test_ablation's names
expand = read
code_blocks = operator.attrgetter("blocks")
language = operator.attrgetter("language")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def prose_lines(path: Path, text: str | None = None) -> list[str]:
    """The page's lines, all but the prose blanked (tools/pages.py)."""
    return _prose_lines(path.read_text(encoding="utf-8") if text is None else text)


def check_listed(page: str) -> None:
    """A page is in the nav (mkdocs.yml) and, unless it is the index, linked from
    docs/index.md, which lists every page. A failure says what to add where."""
    __tracebackhide__ = True
    title = (DOCS / page).read_text(encoding="utf-8").split("\n", 1)[0][2:]
    assert page in nav_pages(), (
        f"docs/{page} is not in the site's navigation. Edit mkdocs.yml: add "
        f"`- {title}: {page}` to `nav:`, where it falls in reading order."
    )
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert page == "index.md" or re.search(rf"\]\({re.escape(page)}[#)]", index), (
        f"docs/{page} is not linked from the index, which lists every page. "
        f"Edit docs/index.md: add `- [{title}]({page}): what it shows.` to its "
        "list, in the nav's order."
    )


# -- the numbers in the prose --------------------------------------------------------

_ANY_NUMBER = NUMBER.pattern.removeprefix(NUMBER_START).removesuffix(r"(?![\w])")


def _words_pattern(phrase: str, numbers: str | None = None, blanks=False) -> re.Pattern:
    """`phrase` as the prose may write it: a space in it is any run of spaces and
    line breaks, and it neither starts nor ends inside a word or a number.
    `numbers`: what each of its numbers may be instead (a near miss), if not itself.
    `blanks`: "{}" in the phrase is a number, captured."""
    parts, at = [], 0
    blank = r"|\{\}" if blanks else ""
    for match in re.finditer(NUMBER.pattern + blank, phrase):
        parts.append(re.escape(phrase[at : match.start()]))
        if match.group() == "{}":
            parts.append(f"({_ANY_NUMBER})")
        else:
            parts.append(numbers or re.escape(match.group()))
        at = match.end()
    parts.append(re.escape(phrase[at:]))
    body = re.sub(r"(\\\s|\s)+", r"\\s+", "".join(parts))
    edge = r"\w" + blank  # a phrase that starts or ends with a word or a number
    after = r"(?!\w)" if re.search(f"(?:{edge})$", phrase) else ""
    if not re.match(edge, phrase):
        return re.compile(body + after)
    # not inside a word or a number: checked after the first character, so that
    # the search jumps between occurrences of it (a pattern that starts with a
    # lookbehind is tried at every position, on hundreds of planted pages)
    first = re.escape(phrase[0])
    if phrase[0].isalpha() and body.startswith(first):
        return re.compile(first + r"(?<![\w.]." + ")" + body[len(first) :] + after)
    return re.compile(r"(?<![\w.])" + body + after)


@dataclass
class _Prose:
    """A page's prose as one text: its numbers, and where each is on the page."""

    page: str
    source: list[str]  # the page as written
    text: str  # its prose, lines joined

    @classmethod
    def of(cls, page: str, text: str | None = None) -> _Prose:
        source = (DOCS / page).read_text(encoding="utf-8") if text is None else text
        return cls(page, source.split("\n"), "\n".join(_prose_lines(source)))

    def __post_init__(self):
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self.numbers = list(NUMBER.finditer(self.text))

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def at(self, offset: int, what: str) -> str:
        """`  docs/page.md:12: 'what' in: the line as written`"""
        line = self.line(offset)
        written = self.source[line - 1].strip()[:90]
        return f"  docs/{self.page}:{line}: {what!r} in: {written}"

    def words(self, offset: int) -> str:
        """The number at `offset` with the words either side of it."""
        before = self.text[:offset].split()[-1:]
        after = self.text[offset:].split()[:2]
        return " ".join(before + after).rstrip(".,;:")


def _problem(what: str, places: list[str], advice: str) -> str:
    """One problem: what is wrong, the places on the page, what to do."""
    return "\n".join([what + (":" if places else "."), *places, "  " + advice])


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _in_prose(n: int) -> str:
    return "is not in the prose" if n == 0 else f"is in the prose {_times(n)}"


def _labels(labels: list[str]) -> str:
    return ", ".join(repr(label) for label in labels)


def _one_digit_apart(a: str, b: str) -> bool:
    """ "0.16" and "0.15": the same but for one digit (a planted or a slipped one)."""
    differ = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    return len(a) == len(b) and len(differ) == 1 and all(map(str.isdigit, differ[0]))


def _entries(computed: dict) -> tuple[dict, dict, list[str]]:
    """computed= as bare numbers and as phrases (a number with words), each with
    the labels that give it, once per occurrence; and what is wrong with it."""
    bare: dict[str, list[str]] = {}
    phrases: dict[str, list[str]] = {}
    problems = []
    for label, value in computed.items():
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list | tuple) or not all(
            isinstance(v, str) for v in values
        ):
            problems.append(
                _problem(
                    f"computed[{label!r}] is {value!r}",
                    [],
                    'Give the string the code formats (f"{x:.2f}"), or a list of '
                    "them, one per occurrence.",
                )
            )
            continue
        for v in values:
            if NUMBER.fullmatch(v):
                bare.setdefault(v, []).append(label)
            elif NUMBER.search(v):
                phrases.setdefault(v, []).append(label)
            else:
                problems.append(
                    _problem(
                        f"computed[{label!r}] is {v!r}, which has no number in it",
                        [],
                        "Give the number as the code formats it, alone or with a "
                        "few words of its sentence.",
                    )
                )
    return bare, phrases, problems


def _phrase_problems(prose: _Prose, phrase: str, labels: list, found: list, where):
    """A phrase must be in the prose as often as computed= gives it."""
    if len(found) == len(labels):
        return []
    what = (
        f"{phrase!r} (computed {_labels(labels)}) {_in_prose(len(found))}, "
        f"computed= has it {_times(len(labels))}"
    )
    if len(found) > len(labels):
        places = [prose.at(m.start(), phrase) for m in found]
        advice = (
            "Lengthen the phrase so that it names one place, or give each "
            "occurrence its own entry."
        )
        return [_problem(what, places, advice)]
    near = []  # the phrase with other numbers: at the first number that differs
    numbers = NUMBER.findall(phrase)
    for m in _words_pattern(phrase, f"({_ANY_NUMBER})").finditer(prose.text):
        differ = [i for i, n in enumerate(m.groups()) if n != numbers[i]]
        if differ:
            line = prose.line(m.start(differ[0] + 1))
            said = " ".join(m.group().split())
            near.append(f"  docs/{prose.page}:{line}: the prose says {said!r}")
    advice = (
        "The prose must say each result as the code formats it: correct the page; "
        f"or, if the words around the number changed, the phrase in {where}."
    )
    return [_problem(what, near, advice)]


def _one_digit_from(prose: _Prose, unclaimed: dict, number: str, most=30):
    """Where the prose has a number one digit from `number` (where it may have
    been changed); only a count if more than `most`."""
    near = [
        f"  one digit from {number!r}: docs/{prose.page}:{prose.line(at)}: {other!r}"
        for other, offsets in unclaimed.items()
        if _one_digit_apart(other, number)
        for at in offsets
    ]
    if len(near) > most:
        return [f"  ({len(near)} numbers in the prose are one digit from it)"]
    return near


def _bare_problems(prose, number, labels, definitions, unclaimed) -> list[str]:
    """A bare number: as often in the prose as computed= gives it; and not also
    a definition, which would hide a change to it."""
    offsets = unclaimed.get(number, [])
    places = [prose.at(at, number) for at in offsets]
    if number in definitions:
        what = (
            f"{number!r} is computed ({_labels(labels)}) and also in definitions=, "
            "which accept it any number of times: a changed occurrence of the "
            "result would go unnoticed"
        )
        advice = (
            f'Tie the result to its words, computed={{{labels[0]!r}: f"... {number} '
            '..."} with a few words of its sentence as the page writes them, and '
            f"keep {number!r} in definitions= for its other occurrences."
        )
        return [_problem(what, [], advice)]
    if len(offsets) < len(labels):
        what = (
            f"{number!r} is in computed= {_times(len(labels))} ({_labels(labels)}) "
            f"but {_in_prose(len(offsets))}"
        )
        advice = (
            "The prose must say each result as the code formats it: correct the "
            "occurrence that changed, or remove the entry whose sentence is gone."
        )
        near = _one_digit_from(prose, unclaimed, number)
        return [_problem(what, places + near, advice)]
    if len(offsets) > len(labels):
        what = (
            f"{number!r} is in the prose {_times(len(offsets))}, in computed= "
            f"{_times(len(labels))} ({_labels(labels)}); each occurrence needs its "
            "own entry"
        )
        advice = (
            "If one was changed by hand, correct it. If each restates a result, "
            "give each its own label (or a list, {label: [s, s]}), or tie each to "
            "a few words of its sentence, as the page writes them (e.g. "
            f"{{label: {prose.words(offsets[0])!r}}})."
        )
        return [_problem(what, places, advice)]
    return []


def prose_number_problems(
    page: str,
    computed: dict[str, str | list[str]],
    definitions: set[str],
    text: str | None = None,
    where: str = "the page's test file",
) -> list[str]:
    """What check_prose_numbers reports for docs/`page` (or for `text` in its
    place): one paragraph per problem, naming its lines; [] if none."""
    prose = _Prose.of(page, text)
    bare, phrases, problems = _entries(computed)
    spans = []  # a phrase accounts for the numbers inside it, where it is found
    for phrase, labels in phrases.items():
        found = list(_words_pattern(phrase).finditer(prose.text))
        spans += [m.span() for m in found]
        problems += _phrase_problems(prose, phrase, labels, found, where)
    unclaimed: dict[str, list[int]] = {}  # number -> its offsets outside phrases
    for m in prose.numbers:
        if not any(a <= m.start() and m.end() <= b for a, b in spans):
            unclaimed.setdefault(m.group(), []).append(m.start())
    for number, labels in bare.items():
        problems += _bare_problems(prose, number, labels, definitions, unclaimed)
    for number, offsets in sorted(unclaimed.items()):
        if number not in bare and number not in definitions:
            what = (
                f"{number!r} is in the prose, but no test computes it and it is "
                "not a definition"
            )
            advice = (
                "A result: add {label: the string the code produces} to computed=. "
                "An input or a fact (a width, a seed, a year, a number from a "
                "paper): add it to definitions=."
            )
            places = [prose.at(at, number) for at in offsets]
            problems.append(_problem(what, places, advice))
    for number in sorted(set(definitions) - set(unclaimed) - set(bare)):
        what = (
            f"{number!r} is in definitions= but not in the prose (outside the "
            "phrases of computed=)"
        )
        near = _one_digit_from(prose, unclaimed, number, most=5)
        advice = (
            "If it was changed by hand, correct it; else remove it from definitions=."
        )
        problems.append(_problem(what, near, advice))
    return problems


def check_prose_numbers(
    page: str,
    computed: dict[str, str | list[str]],
    definitions: set[str] = frozenset(),
    text: str | None = None,
    magnitudes: set[str] = frozenset(),
):
    """Every occurrence of a number in the prose of docs/`page` is accounted for:
    by its own entry in `computed` (label -> the string the code produces, alone
    or with a few words of its sentence; a list for a result said again), or as
    a definition (an input or a fact, allowed any number of times). See
    CONTRIBUTING.md, "Numbers in the prose". `text`: check it in place of the
    page's file (a planted fault). Then a prose number that restates a number of
    the page's output blocks restates it with its sign and rounding
    (printed_number_problems; `magnitudes`: phrases whose words carry the sign)."""
    __tracebackhide__ = True  # pytest shows the message, not this function
    caller = Path(inspect.stack(0)[1].filename)
    where = (
        caller.relative_to(ROOT).as_posix()
        if ROOT in caller.parents
        else "the page's test file"
    )
    problems = prose_number_problems(page, computed, set(definitions), text, where)
    assert not problems, (
        f"docs/{page}: the numbers in its prose do not match what {where} "
        "registers with check_prose_numbers (each occurrence of a result needs "
        "its own entry in computed=; definitions= are inputs and facts; see "
        'CONTRIBUTING.md, "Numbers in the prose"):\n\n' + "\n\n".join(problems)
    )
    problems = printed_number_problems(page, text, set(magnitudes), where)
    assert not problems, (
        f"docs/{page}: its prose restates numbers of its output blocks with "
        'another sign or rounding (see CONTRIBUTING.md, "Numbers in the '
        'prose"):\n\n' + "\n\n".join(problems)
    )


# -- prose that restates a printed number ----------------------------------------
#
# A prose number with a decimal point is a value known to half a unit of its last
# digit (0.013: from 0.0125 to 0.0135), and so is a number an output block prints
# (-0.0125: from -0.01255 to -0.01245). The prose restates a printed number when
# their ranges overlap and the printed one has at least the prose's digits. The
# registration above cannot see this: it ties the prose to the string a test
# formats, and a test can format the wrong one (abs(), another rounding).

# a number in an output block, its sign included; not a version (2.13.0)
_PRINTED = re.compile(
    r"(?<![\w.])(?P<sign>[-−+]?)(?P<digits>\d+(?:,\d{3})*(?:\.\d+)?)"
    r"(?:e(?P<exp>[-+]?\d+))?(?P<percent>%?)(?![\w]|\.\d)"
)
_MINUS = ("-", "−")  # a hyphen or U+2212, the minus sign


@dataclass(frozen=True)
class _Value:
    """A number as written: its value and how far the true one may lie from it."""

    written: str
    value: Decimal
    half: Decimal  # half a unit of its last digit
    line: int  # on the page, from 1
    places: int  # digits after the point, in its own units (a percent's: of %)

    @classmethod
    def of(cls, written, sign, digits, exp, percent, line) -> _Value:
        digits = digits.replace(",", "")
        places = len(digits.partition(".")[2])
        value, half = Decimal(digits), Decimal(5).scaleb(-places - 1)
        if exp:
            value, half = value.scaleb(int(exp)), half.scaleb(int(exp))
        if percent:
            value, half = value / 100, half / 100
        return cls(written, -value if sign in _MINUS else value, half, line, places)

    def restates(self, printed: _Value, size_only=False) -> bool:
        """`printed` rounds to this (to its size alone: `size_only`)."""
        mine, theirs = self.value, printed.value
        if size_only:
            mine, theirs = abs(mine), abs(theirs)
        return (
            printed.half <= self.half and abs(mine - theirs) < self.half + printed.half
        )

    @property
    def significant(self) -> int:
        """Its significant digits as written: 2 for 0.013, 1 for 0.3."""
        return len(re.sub(r"\D", "", self.written).lstrip("0"))

    def misrounds(self, printed: _Value) -> bool:
        """This is `printed`, which has more digits, rounded the wrong way: cut
        off where it should round up (0.04 for 0.0484), or rounded up where it
        should not (0.67 for 0.6621). Not to 0 (0.1 is not 0.0037 rounded)."""
        unit = 2 * self.half
        low, high = (abs(printed.value) + d for d in (-printed.half, printed.half))
        down = (low / unit).to_integral_value(ROUND_FLOOR) * unit
        up = (high / unit).to_integral_value(ROUND_CEILING) * unit
        return (
            printed.half < self.half
            and abs(self.value) in (down, up)
            and abs(printed.value) > self.half
        )

    def rounded(self, printed: _Value, sign=True) -> str:
        """`printed` rounded to this number's digits, as it may round (both ends
        of its range: "0.012 or 0.013" for -0.0125 at 3 digits)."""
        percent = self.written.endswith("%")
        unit = Decimal(1).scaleb(-self.places)
        ends = []
        for end in (printed.value - printed.half, printed.value + printed.half):
            end = end * 100 if percent else end
            end = end if sign else abs(end)
            text = f"{end.quantize(unit, ROUND_HALF_EVEN)}" + "%" * percent
            ends.append(text.replace("-0.", "0.") if float(end) == 0 else text)
        return " or ".join(dict.fromkeys(ends))


def _printed_values(page) -> list[tuple[Block, list[_Value]]]:
    """Each output block of `page` (tools/pages.py's Page) and its numbers."""
    found = []
    for block in page.blocks:
        if block.output is None:
            continue
        values = [
            _Value.of(m.group(), *m.group("sign", "digits", "exp", "percent"), line)
            for line, text in enumerate(
                block.output.text.split("\n"), block.output.start + 1
            )
            for m in _PRINTED.finditer(text)
        ]
        found.append((block.output, values))
    return found


def _prose_values(prose: _Prose, sized: list[tuple[int, int]]):
    """The prose's numbers with a decimal point, each with its sign (a minus or
    a plus right before it, not after a word: "1-5" is a range) and whether it is
    inside a phrase of `sized` (its sign in words)."""
    for m in prose.numbers:
        written = m.group()
        digits = written.removesuffix("%")
        if digits.count(".") != 1 or re.search(r",(?!\d{3}(?!\d))", digits):
            continue  # an integer (its range is too wide to pair), or a version
        before = prose.text[max(0, m.start() - 2) : m.start()]
        sign = before[-1:] if before[-1:] in ("±", "+", *_MINUS) else ""
        if sign in _MINUS and re.match(r"[\w)\]]", before[:1]):
            sign = ""  # a range or a difference, x-0.5: not a sign
        value = _Value.of(
            sign.replace("±", "") + written,
            sign,
            digits,
            None,
            written.endswith("%"),
            prose.line(m.start()),
        )
        in_words = sign == "±" or any(a <= m.start() < b for a, b in sized)
        yield value, in_words


def _restated(page, value, in_words, near, everything, where) -> str | None:
    """What is wrong with the prose number `value` as a restatement of a printed
    one (`near`: the numbers of the output block above it; `everything`: the
    page's); None if nothing, or if it restates none."""
    sizes = [p for p in near if value.restates(p, size_only=True)]
    if sizes:
        if in_words or any(value.restates(p) for p in sizes):
            return None
        return _wrong_sign(page, value, sizes[0], "the output block above", where)
    if any(value.restates(p, size_only=in_words) for p in everything):
        return None  # it restates another number: the page cannot say which
    if value.significant < 2:
        return None  # a number like 0.3 or 0.02 pairs too easily with a printed one
    wrong = [p for p in near if value.misrounds(p)]
    if wrong:
        printed, places = wrong[0], value.places
        return _problem(
            f"docs/{page}:{value.line}: the prose says {value.written!r} where the "
            f"output block above prints {printed.written!r} "
            f"(docs/{page}:{printed.line}), which to {places} decimal "
            f"place{'s' * (places != 1)} is "
            f"{value.rounded(printed, sign=not in_words)!r}",
            [],
            'Round as the code does: f"{x:.3f}" rounds to the nearest (half to '
            "even), it does not cut digits off.",
        )
    sizes = [p for p in everything if value.restates(p, size_only=True)]
    if in_words or not sizes:
        return None
    return _wrong_sign(page, value, sizes[0], "another output block", where)


def _wrong_sign(page, value: _Value, printed: _Value, block: str, where) -> str:
    return _problem(
        f"docs/{page}:{value.line}: the prose says {value.written!r} where "
        f"{block} prints {printed.written!r} (docs/{page}:{printed.line}): the "
        "sign differs",
        [],
        f"Write it as printed, {value.rounded(printed)!r}; or, if the words around "
        'it give its sign ("0.4 below"), add a few of them with the number, as the '
        f"page writes them, to magnitudes= in {where}.",
    )


def printed_number_problems(
    page: str,
    text: str | None = None,
    magnitudes: set[str] = frozenset(),
    where: str = "the page's test file",
) -> list[str]:
    """Prose numbers of docs/`page` (or of `text` in its place) that restate a
    number its output blocks print, but with the other sign or another rounding;
    [] if none. Only numbers with a decimal point: an integer's range (5: from 4.5
    to 5.5) would pair it with any printed number near it.

    A prose number is read against the output block above it first, the one its
    paragraph most likely describes: if that block prints its size, one of those
    must have its sign (so that a -0.0125 there is not excused by a 0.0125 printed
    elsewhere). Otherwise, against every output block of the page. A number that
    restates no printed number, but one of them rounded one unit off in its last
    digit, is a wrong rounding. `magnitudes`: phrases, as the page writes them,
    whose words give a printed negative number's sign ("0.4 below"); their
    numbers are compared by size, and each phrase must be in the prose."""
    prose = _Prose.of(page, text)
    blocks = _printed_values(read(page, text))
    everything = [value for _, values in blocks for value in values]
    sized, problems = [], []
    for phrase in sorted(magnitudes):
        found = [m.span() for m in _words_pattern(phrase).finditer(prose.text)]
        sized += found
        if not found:
            problems.append(
                _problem(
                    f"magnitudes= has {phrase!r}, which is not in the prose",
                    [],
                    f"Correct the phrase in {where} to the page's words, or remove "
                    "it if its sentence is gone.",
                )
            )
    for value, in_words in _prose_values(prose, sized):
        above = [values for output, values in blocks if output.end < value.line]
        near = above[-1] if above else []
        problem = _restated(prose.page, value, in_words, near, everything, where)
        problems += [problem] if problem else []
    return problems


def prose_value(page: str, phrase: str) -> str:
    """The number the prose of docs/`page` gives where it says `phrase`, "{}" marking
    the number: prose_value("real-model.md", "by {} bits or more") -> "0.15". For a
    claim's test to compare the code's result with what the page prints."""
    __tracebackhide__ = True
    found = _words_pattern(phrase, blanks=True).findall(_Prose.of(page).text)
    assert len(found) == 1, (
        f"docs/{page}: the prose says {phrase!r} {_times(len(found))}, a test "
        "reads its number from there and needs it once: update the phrase in the "
        "test to the page's words (a space matches any line break)."
    )
    return found[0]


def digit_changes(page: str):
    """Every number in the prose of docs/`page` with one digit changed, one change
    at a time (the digit up one and down one, modulo 10), as a held-out mutation
    check plants them. Yields (page line, number, changed number, the page's text
    with the change)."""
    text = (DOCS / page).read_text(encoding="utf-8")
    source, prose = text.split("\n"), _prose_lines(text)
    for index, line in enumerate(source):
        if not NUMBER.search(prose[index]):
            continue
        for match in NUMBER.finditer(line):
            digits = [i for i in range(match.start(), match.end()) if line[i].isdigit()]
            for at, step in itertools.product(digits, (1, 9)):
                changed = line[:at] + str((int(line[at]) + step) % 10) + line[at + 1 :]
                planted = "\n".join([*source[:index], changed, *source[index + 1 :]])
                if _prose_lines(planted)[index] == prose[index]:
                    continue  # in inline code or a link: not prose
                new = changed[match.start() : match.end()]
                yield index + 1, match.group(), new, planted


def check_digit_changes(page: str, computed: dict, definitions: set[str]) -> dict:
    """Plant every one-digit change of a prose number on a copy of docs/`page`
    (digit_changes) and check each with the page's registration: each fails
    naming its line, but where a definition becomes another definition (a width
    of 2 made 3 reads as another width, which no registration can tell: that
    passes, or fails without a line where it was the definition's last
    occurrence). Returns the counts: {"planted", "failed naming the line",
    "failed", "definition to definition"}."""
    __tracebackhide__ = True
    assert not prose_number_problems(page, computed, definitions), (
        f"docs/{page}: its own prose fails check_prose_numbers"
    )
    counts = dict.fromkeys(
        ["planted", "failed naming the line", "failed", "definition to definition"], 0
    )
    wrong = []
    for line, number, new, planted in digit_changes(page):
        counts["planted"] += 1
        problems = prose_number_problems(page, computed, definitions, planted)
        swap = number in definitions and new in definitions
        if any(f"docs/{page}:{line}:" in problem for problem in problems):
            counts["failed naming the line"] += 1
        elif swap:  # fails only where it was the definition's last occurrence
            counts["failed" if problems else "definition to definition"] += 1
        else:
            result = "failed without naming the line" if problems else "passed"
            wrong.append(f"  docs/{page}:{line}: {number!r} -> {new!r}: {result}")
    assert not wrong, (
        f"docs/{page}: one-digit changes that check_prose_numbers misses or does "
        "not place:\n" + "\n".join(wrong)
    )
    return counts
