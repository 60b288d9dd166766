"""Placeholder until make twin runs."""

twin_results = {
    "code": "",
    "seeds": (0, 1),
    "total": 24576,
    "fields": ("correct", "mse", "previous-token head", "broken"),
    "runs": {"2x2": {0: ((1, 1), 0.1, 1, [])}, "1x4": {0: ((1, 1), 0.1, 1, [])}, "4x1": {0: ((1, 1), 0.1, 1, [])}},
}
