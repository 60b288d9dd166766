"""Every design at its own best settings, one dot per fresh seed."""

from snippets.width_and_depth.ex03_width_figure import accuracy_panels
from snippets.width_and_depth.ex09_tuned import tuned

# --8<-- [start:page]
fig = accuracy_panels(tuned, columns=4)
# --8<-- [end:page]
