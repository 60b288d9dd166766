"""The depth designs, one dot per seed."""

from snippets.width_and_depth.ex03_width_figure import accuracy_panels

# --8<-- [start:page]
fig = accuracy_panels(["1 layer", "2 layers"])
# --8<-- [end:page]
