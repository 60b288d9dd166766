from snippets.real_model.ex03_attend import attentions
from snippets.real_model.ex07_one_token import layer, rows, tokens

# isort: split
# --8<-- [start:page]
animal_head = rows[:, tokens.index("animal")].argmax().item()
tired_head = rows[:, tokens.index("tired")].argmax().item()

for word in ["tired", "wide"]:  # "too wide": now "it" is the street
    s = f"The animal didn't cross the street because it was too {word}."
    t, w = attentions(s)
    row = w[layer, :, t.index("it")]  # (12, T)
    print(f"too {word:<5}: head {animal_head + 1} on animal "
          f"{row[animal_head, t.index('animal')]:.2f}, head {tired_head + 1} "
          f"on {word} {row[tired_head, t.index(word)]:.2f}")  # fmt: skip
# --8<-- [end:page]
