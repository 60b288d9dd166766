"""Session-wide: start the slow reader runs early (tests/test_reader.py)."""

# The slowest pages first, so that the two background kernels finish together.
SLOWEST = ["training.md", "ablation.md", "real-model.md", "random-heads.md"]


def pytest_collection_finish(session):
    pages = {
        item.callspec.params["page"]
        for item in session.items
        if getattr(item, "originalname", "")
        == "test_the_page_runs_as_the_reader_copies_it"
    }
    if pages:
        from tests import test_reader

        order = sorted(pages, key=lambda p: SLOWEST.index(p) if p in SLOWEST else 99)
        test_reader.start_runs(order)
