from snippets.real_model.ex02_load import model, tokenizer

# isort: split
# --8<-- [start:page]
import torch

sentences = [
    "The cat slept on the warm windowsill all afternoon.",
    "My sister plays the cello in a small orchestra.",
    "Rain fell softly on the roof of the old barn.",
    "He forgot his keys at the office again.",
    "The children built a fort out of blankets.",
    "A train to the coast leaves every hour.",
    "She wrote the letter by hand and posted it.",
    "The bakery on the corner sells fresh bread at dawn.",
    "We watched the stars from the top of the hill.",
    "The old clock in the hall stopped at noon.",
    "Our neighbour grows tomatoes in his back garden.",
    "The museum was closed, so they walked by the river.",
    "A small boat drifted slowly across the lake.",
    "The teacher read a story to the whole class.",
    "Fresh snow covered the quiet streets of the town.",
    "They painted the kitchen a bright shade of yellow.",
    "The dog waited by the door for its owner.",
    "I borrowed a book about volcanoes from the library.",
    "The wind carried the kite high above the field.",
    "Two friends shared a pizza after the long match.",
    "The soup needs more salt and a little pepper.",
    "Every morning he runs along the beach with his dog.",
    "The lights went out just as the film began.",
    "She found an old photograph inside the drawer.",
]


def attentions(sentence):
    """One sentence's tokens and attention weights (layers, heads, T, T)."""
    batch = tokenizer(sentence, return_tensors="pt")
    with torch.no_grad():
        out = model(**batch, output_attentions=True)
    tokens = tokenizer.convert_ids_to_tokens(batch["input_ids"][0])
    return tokens, torch.stack(out.attentions)[:, 0]  # (6, 12, T, T)


tokens, weights = attentions(sentences[0])
print(" ".join(tokens))
print(weights.shape, "= (layers, heads, tokens, tokens)")
# --8<-- [end:page]
