"""The real-model page's snippets.

Loading the model draws a progress bar on stderr. The build and the tests need
none; a reader who runs the page's blocks still sees it.
"""

from transformers.utils import logging

logging.disable_progress_bar()
