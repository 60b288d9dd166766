"""docs/index.md restates no computed number; its numbers are facts and list items."""

from tests.pages import check_prose_numbers


def test_prose_numbers():
    check_prose_numbers(
        "index.md",
        computed={},
        # list items 1-4, chapter 3, 8 heads of width 64, publication years
        definitions={"1", "2", "3", "4", "8", "64", "2017", "2019", "2024"},
    )
