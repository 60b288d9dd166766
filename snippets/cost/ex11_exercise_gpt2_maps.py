layers, heads, T = 12, 12, 1024  # GPT-2 small at its full context
map_bytes = 4 * T * T  # one float32 attention map
for h in (1, heads):
    total = layers * h * map_bytes
    print(f"{h:>2} heads per layer: {total / 2**20:,.0f} MiB per sequence")
