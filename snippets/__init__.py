"""Code shown on the site's pages. Each file runs on its own:

    python -m snippets.one_head.ex01_projections
"""
