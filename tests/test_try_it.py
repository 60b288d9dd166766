"""Claims on docs/try-it.md: equal projections give equal heads; two narrow heads
cost what one wide head costs, except for the softmax rows."""

import pytest
import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

from snippets.attention_inputs import inputs
from snippets.try_it.ex01_equal_projections import (
    attention_head,
    head1,
    head2,
    head2_copy,
)
from snippets.try_it.ex02_parameter_count import params_one, params_two
from tests.pages import check_prose_numbers, on_page

# torch's FLOP counter imports torch._dynamo (2 s): only in the worker that runs
# this file, not in every worker that collects it
PAGE = "try-it.md"
flops = on_page(PAGE, "snippets.try_it.ex03_flop_count")


def test_equal_projections_give_identical_outputs():
    """Claim 2: heads differ only because their projections differ."""
    assert torch.equal(head1, head2_copy)
    assert not torch.allclose(head1, head2, atol=0.05)


def test_same_parameter_count():
    assert params_two == params_one == 3 * 3 * 4


def test_same_matmul_flops():
    assert flops.flops_two == flops.flops_one > 0


@pytest.mark.parametrize("d, h, T", [(4, 2, 6), (12, 3, 10), (768, 12, 32)])
def test_matmul_flops_do_not_depend_on_the_number_of_heads(d, h, T):
    x = torch.rand(T, 3)
    heads = [[torch.rand(3, d // h) for _ in range(3)] for _ in range(h)]
    one = [torch.rand(3, d) for _ in range(3)]
    split = flops.count_flops(lambda: [attention_head(x, *w) for w in heads])
    whole = flops.count_flops(lambda: attention_head(x, *one))
    # projections 3 * T*3*d, scores T*T*d, mixing T*T*d multiply-adds; 2 FLOPs each
    assert split == whole == 2 * (3 * T * 3 * d + 2 * T * T * d)


def test_softmax_rows_double(monkeypatch):
    """Count the rows the softmax actually normalises, independently of the page."""
    rows = []
    real_softmax = torch.softmax

    def counting_softmax(x, dim):
        rows.append(x.numel() // x.shape[dim])
        return real_softmax(x, dim=dim)

    monkeypatch.setattr(torch, "softmax", counting_softmax)
    for head in flops.narrow:
        attention_head(inputs, *head)
    two = sum(rows)
    rows.clear()
    attention_head(inputs, *flops.wide)
    assert (two, sum(rows)) == (12, 6)


def largest_allocation(run) -> tuple[int, set[str]]:
    """The largest single CPU allocation made while `run` runs, and the ops it ran."""
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        run()
    events = prof.events()
    return max(e.cpu_memory_usage for e in events), {e.name for e in events}


def test_maps_cost_memory_only_where_the_code_builds_them():
    """The textbook head allocates a whole T x T map; the fused kernel never does."""
    T, e = 4096, 16
    map_bytes = T * T * 4  # one head's float32 map: 64 MiB
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 1, T, e, generator=g) for _ in range(3))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the kernel's scratch blocks are per thread
    try:
        fused, ops = largest_allocation(lambda: F.scaled_dot_product_attention(q, k, v))
    finally:
        torch.set_num_threads(threads)
    assert "aten::_scaled_dot_product_flash_attention_for_cpu" in ops  # fused path
    assert fused < map_bytes / 8  # its blocks and output: far below one map
    small = [x[..., :512, :] for x in (q, k, v)]  # the textbook way, at T = 512
    textbook, _ = largest_allocation(
        lambda: torch.softmax(small[0] @ small[1].mT / e**0.5, dim=-1) @ small[2]
    )
    assert textbook == 512 * 512 * 4  # the whole map


def test_prose_numbers():
    check_prose_numbers(
        "try-it.md",
        computed={
            "parameters": str(params_two),
            "softmax rows, two heads": str(2 * inputs.shape[0]),
            "weights in a row": f"rows of {inputs.shape[0]} weights",
            "softmax rows, one head": f"one head normalises {inputs.shape[0]}",
        },
        definitions={"1", "2", "3", "4"},  # exercise numbers, widths, 3 x 3 x 4
    )
