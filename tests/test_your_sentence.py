"""Claims on docs/your-sentence.md."""

from snippets.your_sentence.ex01_first_step import x
from tests.pages import check_prose_numbers


def test_the_input_is_six_tokens_of_three_numbers():
    # Placeholder from `make new-page`: one test per claim the prose makes,
    # each able to fail if its claim stopped being true.
    assert x.shape == (6, 3)


def test_prose_numbers():
    check_prose_numbers(
        "your-sentence.md",
        # numbers the prose restates from a result: label -> the code's string
        computed={"tokens": str(x.shape[0]), "per token": str(x.shape[1])},
        # numbers that are inputs or facts, not results (a width, a year)
        # (here, the numbers in the title)
        definitions={"72"},
    )
