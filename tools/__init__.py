"""The library the hooks, the tests and the scripts share: how the pages are read
(pages.py) and how the site is built and served (build.py). Not hooks: mkdocs.yml
lists those, and they are all in hooks/."""
