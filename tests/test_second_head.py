"""Claims on docs/second-head.md."""

import torch

from snippets.attention_inputs import inputs, tokens
from snippets.one_head.ex01_projections import W_query, W_value, values
from snippets.one_head.ex03_weights import scores
from snippets.one_head.ex04_context import context
from snippets.second_head.ex01_hand_set_head import (
    W_k2,
    W_q2,
    W_v2,
    d_k2,
    keys2,
    scores2,
    values2,
    w2,
)
from snippets.second_head.ex02_context import context2
from snippets.second_head.ex03_side_by_side import weights
from snippets.second_head.ex04_concatenate import concatenated
from snippets.second_head.ex05_output_projection import W_o, out
from snippets.second_head.ex07_heads_add_up import from_head_1, from_head_2
from snippets.second_head.ex08_qk_circuits import qk1, qk2
from snippets.second_head.ex09_ov_circuits import ov1, ov2, writes1, writes2
from tests.pages import DOCS, check_digit_changes, check_prose_numbers

JOURNEY = tokens.index("journey")


def second_over_first() -> float:
    strengths = torch.linalg.svdvals(qk1)
    return (strengths[1] / strengths[0]).item()


def test_head_1s_question_is_nearly_a_product_of_two_positive_directions():
    """Nearly rank 1, u v^T with u and v all-positive: every token then ranks the
    others by x_j . v, in the same order."""
    assert second_over_first() < 0.03
    u, s, vh = torch.linalg.svd(qk1)
    u1, v1 = u[:, 0] * u[0, 0].sign(), vh[0] * vh[0, 0].sign()
    assert (u1 > 0).all() and (v1 > 0).all()
    # Perron-Frobenius: qk1 is all-positive, so are M M^T, M^T M and their top
    # eigenvectors, which are u1 and v1 (up to sign)
    assert (qk1 > 0).all()
    for gram, vector in ((qk1 @ qk1.T, u1), (qk1.T @ qk1, v1)):
        top = torch.linalg.eigh(gram).eigenvectors[:, -1]
        torch.testing.assert_close(top * top[0].sign(), vector, atol=1e-5, rtol=0)
    by_v = (inputs @ v1).argsort(descending=True)
    assert all(torch.equal(row.argsort(descending=True), by_v) for row in scores)


def test_head2_row_for_journey_matches_the_article():
    want = torch.tensor([0.6026, 0.1537, 0.1365, 0.0216, 0.0055, 0.0800])
    torch.testing.assert_close(w2[JOURNEY], want, atol=5e-5, rtol=0)
    torch.testing.assert_close(
        context2[JOURNEY], torch.tensor([0.4345, 0.4181]), atol=5e-5, rtol=0
    )


def test_head2_puts_60_percent_on_your_the_largest_third_coordinate():
    your = tokens.index("Your")
    assert w2[JOURNEY].argmax() == your == inputs[:, 2].argmax()
    assert round(w2[JOURNEY, your].item(), 2) == 0.60
    assert w2[JOURNEY].argmin() == tokens.index("one") == inputs[:, 2].argmin()


def test_scaling_by_sqrt_1_changes_nothing():
    assert torch.equal(w2, torch.softmax(scores2, dim=-1))


def test_the_scale_of_3_sharpens_the_row():
    flat = torch.softmax((inputs[:, 2:] @ inputs[:, 2:].T), dim=-1)  # scale 1
    assert w2[JOURNEY].max() > 2 * flat[JOURNEY].max()
    torch.testing.assert_close(scores2, 9 * inputs[:, 2:] @ inputs[:, 2:].T)


def test_the_two_heads_answer_differently():
    assert weights[JOURNEY].argmax() != w2[JOURNEY].argmax()
    assert not torch.allclose(context, context2, atol=0.05)


def test_concatenation_is_head1_then_head2():
    assert concatenated.shape == (6, 4)
    torch.testing.assert_close(
        concatenated[JOURNEY],
        torch.tensor([0.3061, 0.8210, 0.4345, 0.4181]),
        atol=5e-5,
        rtol=0,
    )


def test_output_projection_maps_back_to_model_width():
    assert W_o.shape == (4, inputs.shape[1])
    assert out.shape == inputs.shape
    torch.testing.assert_close(out[:, :2], context)  # outputs 1, 2 copy head 1
    torch.testing.assert_close(out[:, 2], context2.sum(dim=-1))  # output 3 sums head 2


def test_queries_and_keys_have_width_1_values_width_2():
    assert d_k2 == keys2.shape[-1] == 1
    assert values2.shape[-1] == 2 != d_k2  # d_k != d_v


def test_the_output_can_be_added_back_to_the_input():
    """The residual stream: out has the embeddings' width, so x + out is defined."""
    assert (inputs + out).shape == inputs.shape
    assert W_o.shape[0] == concatenated.shape[-1]


def test_heads_are_independent_and_additive():
    torch.testing.assert_close(from_head_1 + from_head_2, out)
    assert (from_head_1[:, 2] == 0).all() and (from_head_2[:, :2] == 0).all()
    # for any W_o, concatenating then projecting = each head through its own rows
    g = torch.Generator().manual_seed(0)
    Wo, c1, c2 = (torch.randn(s, generator=g) for s in [(4, 3), (6, 2), (6, 2)])
    torch.testing.assert_close(torch.cat([c1, c2], -1) @ Wo, c1 @ Wo[:2] + c2 @ Wo[2:])


def test_each_heads_question_is_one_matrix():
    torch.testing.assert_close(scores2, inputs @ qk2 @ inputs.T)
    torch.testing.assert_close(scores, inputs @ qk1 @ inputs.T)
    assert qk1.shape == qk2.shape == (3, 3)


def test_head_2s_question_is_rank_1_and_reads_only_coordinate_3():
    e3 = torch.tensor([0.0, 0.0, 1.0])
    assert torch.equal(qk2, 9 * torch.outer(e3, e3))
    assert torch.linalg.matrix_rank(qk2) == 1
    assert (qk2 != 0).sum() == 1


def test_head_1s_question_has_rank_2_its_query_width():
    assert torch.linalg.matrix_rank(qk1) == 2 == W_query.shape[1]
    assert (qk1 != 0).all()  # every coordinate meets every coordinate


def test_each_heads_write_is_one_matrix_and_the_writes_add_up_to_the_output():
    """x_j W_v W_o^(1) is what head 1 writes for token j; summed with the head's
    weights it is ex07's from_head_1, and the two writes add up to out."""
    torch.testing.assert_close(ov1, W_value @ W_o[:2])
    torch.testing.assert_close(ov2, W_v2 @ W_o[2:])
    torch.testing.assert_close(writes1, from_head_1)
    torch.testing.assert_close(writes2, from_head_2)
    torch.testing.assert_close(writes1 + writes2, out)
    assert ov1.shape == ov2.shape == (3, 3)


def test_head_1_writes_outputs_1_and_2_from_all_three_coordinates():
    assert (ov1[:, 2] == 0).all() and (ov1[:, :2] != 0).all()
    assert torch.linalg.matrix_rank(ov1) == 2 == values.shape[-1]


def test_head_2_picks_by_coordinate_3_and_writes_only_the_sum_of_1_and_2():
    assert (qk2[2, 2] != 0) and (qk2 != 0).sum() == 1  # it looks by coordinate 3
    assert (ov2[2] == 0).all()  # its third row is zero: coordinate 3 never leaves
    assert (ov2[:, :2] == 0).all()  # it writes only into output 3 ...
    assert ov2[:2, 2].tolist() == [1.0, 1.0]  # ... the sum of coordinates 1 and 2
    assert torch.linalg.matrix_rank(ov2) == 1 < values2.shape[-1]  # rank 1 < d_v 2


def test_an_ov_circuits_rank_is_at_most_its_value_width():
    """Through d_v value numbers: rank <= d_v. Whatever head 2 attends to, its
    write lies along output 3."""
    for ov, d_v in [(ov1, values.shape[-1]), (ov2, values2.shape[-1])]:
        assert torch.linalg.matrix_rank(ov) <= d_v
    g = torch.Generator().manual_seed(0)
    for d_v in (1, 2):  # random heads, not only these two
        W_v, W = torch.randn(3, d_v, generator=g), torch.randn(d_v, 3, generator=g)
        assert torch.linalg.matrix_rank(W_v @ W) == d_v
    any_weights = torch.softmax(torch.randn(6, 6, generator=g), dim=-1)
    write = any_weights @ inputs @ ov2
    assert (write[:, :2] == 0).all() and (write[:, 2] != 0).all()


def test_the_page_cites_its_sources():
    text = " ".join((DOCS / "second-head.md").read_text().split())
    assert "Clark et al. (2019, *What Does BERT Look At?*)" in text
    # Clark et al.'s Figure 5 captions: the dependent attends to
    # the word it depends on ("Direct objects attend to their verbs"; "Noun
    # modifiers (e.g., determiners) attend to their noun"), except pobj.
    assert "direct objects attend to their verbs" in text
    assert "determiners attend to their nouns" in text
    assert "only the preposition head runs the other way, from prepositions" in text
    assert "coreference, not a dependency" in text
    assert "from a verb to its direct object" not in text
    assert "A Mathematical Framework for Transformer Circuits" in text
    assert '"independent and additive"' in text and "**QK circuit**" in text
    assert "**residual stream**" in text
    assert '"Attention Heads as Information Movement"' in text
    assert '"Attention Heads are Independent and Additive"' in text
    assert "**OV circuit**" in text
    # Elhage et al.'s circuits are the matrices between tokens: W_QK (W_OV)
    # with the embedding (and unembedding) around it
    assert "**QK matrix**" in text and "$W_E^\\top W_{QK} W_E$" in text
    assert "**OV matrix**" in text and "$W_U W_{OV} W_E$" in text


def rank(matrix: torch.Tensor) -> int:
    return torch.linalg.matrix_rank(matrix).item()


def prose_numbers() -> dict:
    """check_prose_numbers' registration: each number once per occurrence (tied
    to its words where the number is also a definition, as 2 and 3 are here)."""
    your = tokens.index("Your")
    return dict(
        computed={
            "head 2 on Your": f"{w2[JOURNEY, your]:.0%}",
            "third coordinate of Your": f"{inputs[your, 2]:.2f}",
            "scale": [
                f"scaled by {W_q2[2, 0]:.0f}",
                f"the scale of {W_q2[2, 0]:.0f}?",  # the note's title
                f"query and key by {W_q2[2, 0]:.0f}",
            ],
            "score multiplier": f"every score by {W_q2[2, 0] * W_k2[2, 0]:.0f}",
            "QK entry of head 2": [
                f"entry, {qk2[2, 2]:.0f}, in",
                f"${qk2[2, 2]:.0f}\\, e_3",
                f"is {qk2[2, 2]:.0f} times the",
            ],
            "d_v of head 2": f"values have width {values2.shape[-1]}",
            "rank of head 1's question": f"rows span, is {rank(qk1)}, the most",
            "rank of head 2's question": f"so its rank is {rank(qk2)},",
            "second singular value over the first": f"{second_over_first():.0%}",
            "alt: Your's weight when Your asks": f"{w2[your, your]:.2f}",
            "alt: Your's weight when one asks": f"{w2[tokens.index('one'), your]:.2f}",
            "rank of head 2's write": f"leave rank {torch.linalg.matrix_rank(ov2)}:",
            "alt: the pipeline's shapes": [
                f"input x, {shape(inputs)}",
                f"values are {shape(values)} each",
                f"keys are {shape(keys2)}",
                f"its values {shape(values2)}",
                f"weights are {shape(w2)}",
                f"the context is {shape(context2)}",
                f"concatenation is {shape(concatenated)}",
                f"W_o is {shape(W_o)}",
                f"output is {shape(out)}",
            ],
        },
        # widths 1 and 2, head 1/2, W_o shape and rows 1-4; Clark et al. 2019,
        # sections 3.1, 4.2 and 4.3, Figure 5 and Table 1; Vaswani et al. 2017,
        # section 3.1; Elhage et al. 2021; GPT-2's section 2.3
        definitions={"1", "2", "3", "4", "5", "2019", "2017", "3.1", "4.2", "4.3"}
        | {"2021", "2.3"},
    )


def shape(tensor) -> str:
    """A tensor's shape as the pipeline's alt text writes it: (6, 2)."""
    return str(tuple(tensor.shape))


def test_prose_numbers():
    check_prose_numbers("second-head.md", **prose_numbers())


def test_a_digit_changed_in_the_prose_fails_naming_its_line():
    """Every one-digit change of a prose number, planted in a copy of the page."""
    counts = check_digit_changes("second-head.md", **prose_numbers())
    assert counts["planted"] > 100 and counts["failed naming the line"] > 50
