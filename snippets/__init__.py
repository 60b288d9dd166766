"""Code shown on the site's pages.

Each file runs on its own from the repository root, for example
`python -m snippets.one_head.ex01_projections`.
"""
