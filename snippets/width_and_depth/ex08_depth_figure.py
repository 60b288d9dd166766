"""The depth designs, one dot per seed."""

from snippets.width_and_depth.ex02_width_rates import measured
from snippets.width_and_depth.ex03_width_figure import accuracy_panels

# --8<-- [start:page]
depth = ["1 layer", "2 layers", "2 x 2 on stream"]
fig = accuracy_panels({name: measured[name] for name in depth})
# --8<-- [end:page]
