"""The page checks themselves: a drifted digit fails with a diff that names the page
and the output block's line; `--update-outputs` repairs it; a printed grad_fn and a
test file's import of a missing snippet fail saying why; the prose-number checks
name each number's line; a page missing from the nav or the index is named with
the file to edit."""

import subprocess
import sys

import pytest

from tests import pages
from tests.pages import check_listed, check_prose_numbers, copy_sources
from tools.build import SOURCES
from tools.pages import ROOT, blocks, compiled, read

COPY = [*SOURCES, "pyproject.toml", "tests"]


def run_pytest(cwd, *args):
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture
def copy_of_repo(tmp_path):
    return copy_sources(tmp_path, COPY)


@pytest.fixture
def docs(tmp_path, monkeypatch):
    """An empty docs/ for the prose-number checks to read pages from."""
    monkeypatch.setattr(pages, "DOCS", tmp_path)
    return tmp_path


def test_a_changed_digit_fails_with_a_diff_then_update_outputs_repairs_it(copy_of_repo):
    page = copy_of_repo / "docs" / "one-head.md"
    original = page.read_text(encoding="utf-8")
    drifted = original.replace("tensor([0.3061, 0.8210])", "tensor([0.3061, 0.8211])")
    assert drifted != original
    page.write_text(drifted, encoding="utf-8")
    lines = drifted.split("\n")
    code = lines.index('```python title="snippets/one_head/ex04_context.py"') + 1
    output = lines.index("tensor([0.3061, 0.8211])") + 1
    assert output > code + 3

    result = run_pytest(copy_of_repo, "docs/one-head.md")
    assert result.returncode == 1, result.stdout
    for expected in (
        f"docs/one-head.md:{output}: the page's output block does not match what "
        f"the code block at line {code} prints",
        f"@@ -{output} +{output} @@",  # the diff in the page's lines
        "-tensor([0.3061, 0.8211])",
        "+tensor([0.3061, 0.8210])",
        # under `make page`, the page's own (tests/test_contributing.py)
        "If the change is intended, run `make page PAGE=one-head UPDATE=1` "
        "(or `make update-outputs` for every page).",
    ):
        assert expected in result.stdout

    fixed = run_pytest(copy_of_repo, "docs/one-head.md", "--update-outputs")
    assert fixed.returncode == 0, fixed.stdout
    assert page.read_text(encoding="utf-8") == original


def test_a_printing_block_without_an_output_block_fails(copy_of_repo):
    page = copy_of_repo / "docs" / "one-head.md"
    text = page.read_text(encoding="utf-8")
    marker = "<!--pytest-codeblocks:expected-output-->\n\n"
    marker += "```text\ntensor([0.3061, 0.8210])\n```\n"
    assert marker in text
    page.write_text(text.replace(marker, ""), encoding="utf-8")
    result = run_pytest(copy_of_repo, "docs/one-head.md")
    assert result.returncode == 1
    assert "the block prints, but the page shows no output block" in result.stdout


@pytest.fixture
def planted(tmp_path):
    """A copy of the page machinery with no page and no snippet: plant your own."""
    root = copy_sources(tmp_path, [n for n in COPY if n not in ("docs", "snippets")])
    (root / "docs").mkdir()
    (root / "snippets" / "demo_page").mkdir(parents=True)
    (root / "snippets" / "__init__.py").write_text("")
    (root / "snippets" / "demo_page" / "__init__.py").write_text("")
    return root


def test_a_printed_grad_fn_fails_naming_the_cause(planted):
    """A tensor that tracks gradients prints `grad_fn=<...>`: the page check says
    why, and what to print instead, even when the output block shows it too."""
    # what `print(torch.ones(2, requires_grad=True) * 2)` prints (torch would take
    # seconds to import in each run)
    output = "tensor([2., 2.], grad_fn=<MulBackward0>)"
    (planted / "docs" / "demo-page.md").write_text(
        f'# Demo\n\n```python\nprint("{output}")\n```\n\n'
        f"<!--pytest-codeblocks:expected-output-->\n\n```text\n{output}\n```\n",
        encoding="utf-8",
    )
    for update in ([], ["--update-outputs"]):  # and UPDATE=1 does not write it in
        result = run_pytest(planted, "docs/demo-page.md", *update)
        assert result.returncode == 1, result.stdout
        for expected in (
            "docs/demo-page.md:3: the block prints a tensor that records how it was "
            "computed for autograd (grad_fn=<MulBackward0>...)",
            "`with torch.no_grad():`",
        ):
            assert expected in result.stdout


def test_a_test_file_importing_a_missing_snippet_names_it_and_the_page(planted):
    """The scaffold's ex01_first_step.py renamed, its test file's import left: the
    failure names the module, the page and the files there, and the tally of code
    blocks says why none ran."""
    (planted / "snippets/demo_page/ex01_lengths.py").write_text("x = 1\n")
    (planted / "docs/demo-page.md").write_text("# Demo\n\n```python\nx = 1\n```\n")
    (planted / "tests/test_demo_page.py").write_text(
        '"""Claims."""\n\nfrom snippets.demo_page.ex01_first_step import x\n\n\n'
        "def test_x():\n    assert x == 1\n"
    )
    result = run_pytest(planted, "docs/demo-page.md", "tests/test_demo_page.py")
    assert result.returncode == 2, result.stdout
    for expected in (
        "tests/test_demo_page.py:3: imports snippets.demo_page.ex01_first_step, but "
        "there is no snippets/demo_page/ex01_first_step.py; snippets/demo_page/ "
        "holds: ex01_lengths.py (the snippets of docs/demo-page.md)",
        "code blocks executed: 0, outputs checked: 0, blocks skipped with a reason: "
        "0 (pytest ran nothing: tests/test_demo_page.py could not be collected",
    ):
        assert expected in result.stdout


def test_a_pages_blocks_and_output_blocks_are_found_with_their_lines():
    page = read("one-head.md")
    lines = page.text.split("\n")
    weights, figure = (
        next(b for b in page.blocks if f"snippets/one_head/{name}.py" in b.info)
        for name in ("ex03_weights", "ex05_heatmap")
    )
    assert lines[weights.start - 1].startswith("```python title=")
    assert lines[weights.end - 1] == "```" and "weights = " in weights.code
    output = weights.output
    assert lines[output.start - 1] == "```text" and lines[output.end - 1] == "```"
    assert output.text.split("\n")[:2] == [lines[output.start], lines[output.start + 1]]
    assert lines[output.start].startswith("tensor([0.1500")
    assert lines[output.start + 1] == "tensor([1., 1., 1., 1., 1., 1.])"
    assert figure.output is None and figure.indent == "    "  # in a collapsed box


PAGE = """# A page

Head 2 puts 60% of its budget on *Your*.
The two heads differ by 0.15 bits or more, and
the spread is 0.15; no head gives more than 0.16.
"""


RESULTS = {"share": "60%", "spread and least": ["0.15"] * 2, "most": "0.16"}


def check(computed, definitions=frozenset({"2"}), text=PAGE, magnitudes=frozenset()):
    """check_prose_numbers on `text` as docs/p.md."""
    __tracebackhide__ = True
    check_prose_numbers("p.md", computed, definitions, text, magnitudes)


def failure(
    computed, definitions=frozenset({"2"}), text=PAGE, magnitudes=frozenset()
) -> str:
    with pytest.raises(AssertionError) as raised:
        check(computed, definitions, text, magnitudes)
    return str(raised.value)


def test_an_unregistered_prose_number_is_named_with_its_line(docs):
    text = (
        "# A page\n\nWidth $d_k = 128$ and `512` in code.\n\n```python\nx = 7\n```\n"
        "\nStill 128, and 60% here.\n<!-- 99 -->\n"
    )
    message = failure({"share": "60%"}, definitions=set(), text=text)
    # math counts; inline code, code and comments do not
    assert "'128' is in the prose, but no test computes it" in message
    assert "docs/p.md:3: '128' in: Width $d_k = 128$" in message
    assert "docs/p.md:9: '128' in: Still 128" in message
    assert "tests/test_page_checks.py" in message  # where to register it
    assert "'512'" not in message and "'7'" not in message and "'99'" not in message
    check({"share": "60%"}, definitions={"128"}, text=text)
    with pytest.raises(AssertionError, match="'61%' is in computed= once"):
        check({"share": "61%"}, definitions={"128"}, text=text)


def test_each_occurrence_of_a_result_needs_its_own_entry(docs):
    """Numbers matched as a set let "0.15 bits or more" become 0.16 while the
    page also printed 0.15 (the spread) and 0.16 (another result)."""
    results = {"share": "60%", "least": "0.15", "spread": "0.15", "most": "0.16"}
    check(results)
    check({**results, "least": "0.15", "spread": "0.15"})  # two labels, one value
    check({"share": "60%", "least and spread": ["0.15", "0.15"], "most": "0.16"})
    planted = PAGE.replace("by 0.15 bits", "by 0.16 bits")
    message = failure(results, text=planted)
    assert (
        "'0.15' is in computed= 2 times ('least', 'spread') but is in the "
        "prose once:" in message
    )
    assert "  docs/p.md:5: '0.15' in: the spread is 0.15" in message
    assert "  one digit from '0.15': docs/p.md:4: '0.16'" in message
    assert "'0.16' is in the prose 2 times, in computed= once ('most')" in message
    assert "  docs/p.md:4: '0.16' in: The two heads differ by 0.16 bits" in message
    # a number given once that the prose has twice
    message = failure({"share": "60%", "least": "0.15", "most": "0.16"})
    assert "'0.15' is in the prose 2 times, in computed= once ('least')" in message
    assert "docs/p.md:4:" in message and "docs/p.md:5:" in message


def test_a_result_with_words_is_tied_to_its_place(docs):
    tied = {
        "share": "60%",
        "least": "by 0.15 bits or more",  # found across the line break too
        "spread": "the spread is 0.15;",
        "most": "more than 0.16.",
    }
    check(tied)
    message = failure(tied, text=PAGE.replace("by 0.15 bits", "by 0.16 bits"))
    assert "'by 0.15 bits or more' (computed 'least') is not in the prose" in message
    assert "  docs/p.md:4: the prose says 'by 0.16 bits or more'" in message
    assert "'0.16' is in the prose, but no test computes it" in message
    # a phrase that the prose has twice names no place: make it longer
    twice = PAGE + "Again, 60% of its budget.\n"
    message = failure({**tied, "share": "60% of its budget"}, text=twice)
    assert (
        "'60% of its budget' (computed 'share') is in the prose 2 times, "
        "computed= has it once" in message
    )
    assert "Lengthen the phrase" in message
    # the numbers in a phrase are accounted for there, definitions included
    check({**tied, "share": "Head 2 puts 60%"}, definitions=set())


def test_a_result_cannot_also_be_a_definition(docs):
    """A definition is allowed any number of times, so it would hide a change to
    the result with the same number: the result must be tied to its words."""
    message = failure({**RESULTS, "head": "2"})
    assert "'2' is computed ('head') and also in definitions=" in message
    assert "Tie the result to its words" in message
    check({**RESULTS, "head": "Head 2 puts"}, definitions=set())


def test_a_definition_the_prose_does_not_have_fails(docs):
    message = failure(RESULTS, definitions={"2", "3"})
    assert "'3' is in definitions= but not in the prose" in message
    assert "one digit from '3': docs/p.md:3: '2'" in message  # may have been it
    assert "remove it from definitions=" in message
    message = failure({**RESULTS, "head": 2})
    assert "computed['head'] is 2.\n  Give the string the code formats" in message


def test_prose_value_reads_the_number_where_the_page_says_it(docs):
    (docs / "p.md").write_text(PAGE, encoding="utf-8")
    assert pages.prose_value("p.md", "differ by {} bits or more") == "0.15"
    assert pages.prose_value("p.md", "puts {} of its") == "60%"
    both = "by {} bits or more, and the spread is {};"
    assert pages.prose_value("p.md", both) == ("0.15", "0.15")
    with pytest.raises(AssertionError, match="says 'by {} bytes' 0 times"):
        pages.prose_value("p.md", "by {} bytes")


def test_a_changed_digit_fails_naming_its_line_unless_definitions_swap(docs):
    (docs / "p.md").write_text(PAGE + "Widths 2 and 3.\n", encoding="utf-8")
    counts = pages.check_digit_changes("p.md", RESULTS, {"2", "3"})
    # 60% 0.15 0.15 0.16 (2 + 3 + 3 + 3 digits, up and down), Head 2, 2, 3
    assert counts["planted"] == 2 * (11 + 3)
    assert counts["definition to definition"] == 2  # 2 -> 3 and 3 -> 2, line 6
    assert counts["failed"] == 0  # "Head 2" keeps a 2 when the widths' changes
    assert counts["failed naming the line"] == counts["planted"] - 2
    with pytest.raises(AssertionError, match="its own prose fails"):
        pages.check_digit_changes("p.md", RESULTS, {"2"})


def test_a_page_missing_from_the_nav_or_the_index_names_the_file_to_edit(
    docs, monkeypatch
):
    (docs / "new.md").write_text("# A new page\n", encoding="utf-8")
    with pytest.raises(AssertionError) as failure:
        check_listed("new.md")
    message = str(failure.value)
    assert "docs/new.md is not in the site's navigation. Edit mkdocs.yml" in message
    assert "`- A new page: new.md`" in message
    monkeypatch.setattr(pages, "nav_pages", lambda: ("new.md",))
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="Edit docs/index.md: add `- \\[A new"):
        check_listed("new.md")
    (docs / "index.md").write_text("- [A new page](new.md): it.\n")
    check_listed("new.md")


def test_a_lazy_module_runs_when_first_used_or_imported(tmp_path, monkeypatch):
    """tests/pages.py's lazy: nothing runs while a test file is collected; the
    module runs at its first use, or when import_lazy (tests/conftest.py, before
    the file's first test) imports it, and once."""
    (tmp_path / "lazy_probe.py").write_text("runs = []\nruns.append(1)\n")
    monkeypatch.syspath_prepend(tmp_path)
    monkeypatch.delitem(sys.modules, "lazy_probe", raising=False)
    probe = pages.lazy("lazy_probe")
    assert "lazy_probe" not in sys.modules
    with pytest.raises(AttributeError):
        getattr(probe, "__wrapped__")  # noqa: B009 (as pytest asks, collecting)
    assert "lazy_probe" not in sys.modules
    pages.import_lazy({"probe": probe, "other": 1})
    assert sys.modules["lazy_probe"].runs == [1] and probe.runs == [1]


# -- a prose number that restates a printed one --------------------------------------

PRINTED = """# A page

```python
print(0.0125, 0.31)
```

<!--pytest-codeblocks:expected-output-->

```text
tensor([0.0125, 0.3100])
```

```python
print(-0.0125, 0.6621)
```

<!--pytest-codeblocks:expected-output-->

```text
score correlation    -0.0125
score spread          0.6621
```

The scores are unrelated (correlation -0.013) and spread over 0.66.
"""
# The test registers what the prose says. A test that formats abs(x), or rounds
# another way, passes the registration: this check reads the output blocks.
SAID = {"correlation": "(correlation -0.013)", "spread": "0.66"}


def line_of(text: str) -> str:
    """docs/p.md:N, N the line of PRINTED that starts with `text`."""
    lines = PRINTED.split("\n")
    return f"docs/p.md:{next(i for i, x in enumerate(lines, 1) if x.startswith(text))}"


def restated(written: str, said: str, magnitudes=frozenset()) -> str:
    """The failure of PRINTED with its correlation written `written`."""
    text = PRINTED.replace("(correlation -0.013)", f"(correlation {written})")
    return failure({**SAID, "correlation": said}, set(), text, magnitudes)


def test_a_restated_number_with_the_wrong_sign_fails_naming_page_and_number(docs):
    check(SAID, set(), PRINTED)
    for minus in ("-0.012", "−0.013"):  # either rounding of -0.0125; U+2212 too
        text = PRINTED.replace("-0.013", minus)
        check({**SAID, "correlation": f"(correlation {minus})"}, set(), text)
    sentence, printed = line_of("The scores"), line_of("score correlation")
    message = restated("0.013", "0.013)")
    assert "docs/p.md: its prose restates numbers of its output blocks" in message
    assert (
        f"{sentence}: the prose says '0.013' where the output block above prints "
        f"'-0.0125' ({printed}): the sign differs" in message
    )
    assert "Write it as printed, '-0.013 or -0.012'" in message
    # the first block's 0.0125 does not excuse it: the block above is read first
    assert "tensor([0.0125" in PRINTED
    # in math, or with a plus sign, it is the same number
    for written, shown in [("$\\rho = 0.013$", "0.013"), ("+0.013", "+0.013")]:
        message = restated(written, written)
        assert f"{sentence}: the prose says {shown!r} where" in message


def test_a_restated_number_rounded_the_wrong_way_fails(docs):
    sentence, printed = line_of("The scores"), line_of("score spread")
    for wrong, right in [("0.67", "0.66"), ("0.663", "0.662")]:  # 0.6621
        text = PRINTED.replace("over 0.66.", f"over {wrong}.")
        message = failure({**SAID, "spread": wrong}, set(), text)
        assert (
            f"{sentence}: the prose says {wrong!r} where the output block above "
            f"prints '0.6621' ({printed}), which to {len(right) - 2} decimal places "
            f"is {right!r}" in message
        )
        text = PRINTED.replace("over 0.66.", f"over {right}.")
        check({**SAID, "spread": right}, set(), text)


def test_a_sign_in_words_is_registered_as_a_magnitude(docs):
    said = "(correlation 0.013 below"
    message = restated("0.013 below zero", said)
    assert "the sign differs" in message and "to magnitudes= in" in message
    text = PRINTED.replace("(correlation -0.013)", "(correlation 0.013 below zero)")
    check({**SAID, "correlation": said}, set(), text, {"0.013 below zero"})
    message = restated("0.013 below zero", said, {"0.013 under zero"})
    assert "magnitudes= has '0.013 under zero', which is not in the prose" in message


def test_numbers_that_restate_nothing_are_not_paired_with_printed_ones(docs):
    """Integers, numbers of one significant digit (a bound, a parameter of a
    heading: N(0, 0.02), one unit from -0.0125) and a range are left alone."""
    text = PRINTED.replace(
        "spread over 0.66.",
        "spread over 0.66. Layers 1-5, a bound of -0.3, a width of -1; N(0, 0.02).",
    )
    check(SAID, {"1", "5", "0", "0.02", "0.3"}, text)


def test_a_test_file_reads_its_pages_own_run():
    """`on_page`: a name the module's page section binds is the page run's own
    object; one its hidden set-up imports is looked up where it came from, the same
    way; one that a later block binds again (ablation's n_layers, bound by its
    sentences' block and again by its heatmap's) comes from the module."""
    one_head = pages.DOCS / "one-head.md"
    name = "snippets.one_head.ex01_projections"
    projections = pages.on_page("one-head.md", name)
    run = pages.page_namespace(one_head)
    assert projections.W_query is run["W_query"]
    assert "inputs" not in pages.names_from_page(one_head, name)  # hidden set-up
    assert pages.hidden_source(name, "inputs") == (
        "snippets.attention_inputs",
        "inputs",
    )
    assert "inputs" in pages.names_from_page(one_head, "snippets.attention_inputs")
    assert projections.inputs is run["inputs"]
    ablation, sentences = pages.DOCS / "ablation.md", "snippets.ablation.ex05_sentences"
    section = '--8<-- "snippets/ablation/ex05_sentences.py:page"\n'
    assert "n_layers" in pages._bound(pages._expand(section)[0])
    assert "n_layers" not in pages.names_from_page(ablation, sentences)
    assert "n_layers" in pages.names_from_page(
        ablation, "snippets.ablation.ex08_heatmap"
    )


def test_a_pages_run_counts_as_the_snippets_own_lines():
    """tools/pages.py, `compiled`: each included section runs as its file's lines
    (what coverage, tracebacks and `inspect` read), the page's own lines under
    the page; a loop that ends a section leaves to the file's next statement."""
    page = read(pages.DOCS / "real-model.md")
    block = next(b for b in page.python() if "ex05_sinks.py:page" in b.text)
    path = ROOT / "snippets/real_model/ex05_sinks.py"
    (piece,) = [p for p in compiled(block, "page.md:1") if p.co_filename == str(path)]
    lines = path.read_text().split("\n")
    start = lines.index("# --8<-- [start:page]") + 1
    end = lines.index("# --8<-- [end:page]") + 1
    code = [n for n in range(start + 1, end) if lines[n - 1].strip()]
    after = next(n for n in range(end + 1, len(lines)) if lines[n - 1][:1] not in "#")
    ran = {line for _, _, line in piece.co_lines() if line}
    assert ran - {after} <= set(code) and min(ran) == code[0]
    assert after in ran  # the loop's way out: a `pass` put on that line
    (fake,) = blocks(
        '```python\n--8<-- "snippets/one_head/ex02_scores.py:page"\nshown = 1\n```\n'
    )
    first, own = compiled(fake, "page.md:1")
    assert first.co_filename == str(ROOT / "snippets/one_head/ex02_scores.py")
    assert own.co_filename == "page.md:1"
    assert {line for _, _, line in own.co_lines() if line} == {
        len(fake.code.rstrip("\n").split("\n"))
    }  # its line in the block as the page shows it, expanded


def test_a_block_whose_pieces_do_not_compile_apart_compiles_whole():
    (block,) = blocks(
        '```python\ndef f():\n    --8<-- "snippets/one_head/ex02_scores.py:page"\n```\n'
    )
    (whole,) = compiled(block, "page.md:1")
    assert whole.co_filename == "page.md:1"
