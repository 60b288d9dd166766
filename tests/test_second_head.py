"""Claims on docs/second-head.md."""

import torch

from snippets.attention_inputs import inputs, tokens
from snippets.one_head.ex04_context import context
from snippets.second_head.ex01_hand_set_head import W_k2, W_q2, scores2, w2
from snippets.second_head.ex02_context import context2
from snippets.second_head.ex03_side_by_side import weights
from snippets.second_head.ex04_concatenate import concatenated
from snippets.second_head.ex05_output_projection import W_o, out
from tests.pages import check_prose_numbers

JOURNEY = tokens.index("journey")


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


def test_prose_numbers():
    your = tokens.index("Your")
    check_prose_numbers(
        "second-head.md",
        computed={
            "head 2 on Your": f"{w2[JOURNEY, your]:.0%}",
            "third coordinate of Your": f"{inputs[your, 2]:.2f}",
            "scale": f"{W_q2[2, 0]:.0f}",
            "score multiplier": f"{W_q2[2, 0] * W_k2[2, 0]:.0f}",
        },
        definitions={"1", "2", "3"},  # width 1, sqrt(1), head 1/2, W_o shape
    )
