"""``values.union``, the operands of one operation in one pass, is the fold of ``|`` it replaces."""
from __future__ import annotations

import random

from gradlint.analysis import values as V


def _fold(operands):
    out = V.CONST
    for value in operands:
        out = out | value
    return out


def _random_value(rng: random.Random) -> V.Value:
    def some() -> frozenset:
        return frozenset(rng.sample("abcdefg", rng.randint(0, 3)))

    flag = lambda: rng.random() < 0.5  # noqa: E731
    return V._value(
        trainables=some(), post=some(), nograd=some(), pulled=some(), rebuilt=some(), carried=some(),
        saved=some(), cuts={cut: some() for cut in rng.sample(["c1", "c2", "c3", "c4"], rng.randint(0, 3))},
        tensor=flag(), computed=flag(), const=flag(), live=flag(), lost=flag(), optimizer=flag(),
        alias=rng.choice([None, "h"]),
    )


def test_union_is_the_fold_of_or():
    rng = random.Random(7)
    for _ in range(5000):
        operands = [_random_value(rng) for _ in range(rng.randint(0, 5))]
        expected = _fold(operands).__dict__
        if len(operands) == 1:
            # One operand: each cut keeps the companions it had (`torch.mean(dead + task)` keeps
            # a dead term dead), where the fold would join the operand's own trainables to it.
            expected = {**expected, "cuts": operands[0].cuts}
        assert V.union(iter(operands)).__dict__ == expected, operands
