"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 1

An element-by-element reference for discounted returns (each entry the
previous one times a learned discount plus a reward) is only compared
against the vectorised model in unit tests. Nothing is backpropagated
through the reference, so the saved earlier elements are never checked.
"""
import unittest

import torch
import torch.nn as nn


def reference_returns(rewards, gamma):
    T, n = rewards.shape
    out = torch.zeros(T, n)
    for j in range(n):
        out[0, j] = rewards[0, j]
    for i in range(1, T):
        for j in range(n):
            out[i, j] = out[i - 1, j] * gamma[j] + rewards[i, j]
    return out


class LearnedDiscount(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.logit = nn.Parameter(torch.randn(n))

    def gamma(self):
        return torch.sigmoid(self.logit)

    def forward(self, rewards):
        g = self.gamma()
        T = rewards.shape[0]
        idx = torch.arange(T, dtype=rewards.dtype)
        expo = idx[:, None] - idx[None, :]
        mask = (expo >= 0).to(rewards.dtype)
        powers = g[None, None, :] ** expo.clamp(min=0)[:, :, None]
        weights = powers * mask[:, :, None]
        return torch.einsum("ikn,kn->in", weights, rewards)


class TestReturns(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.model = LearnedDiscount(3)
        self.rewards = torch.randn(7, 3)

    def test_matches_reference(self):
        fast = self.model(self.rewards)
        slow = reference_returns(self.rewards, self.model.gamma())
        self.assertTrue(slow.requires_grad)
        self.assertTrue(torch.allclose(fast, slow, atol=1e-5))

    def test_model_trains(self):
        opt = torch.optim.SGD(self.model.parameters(), lr=0.5)
        target = torch.randn(7, 3)
        before = self.model.logit.detach().clone()
        for _ in range(3):
            opt.zero_grad()
            loss = ((self.model(self.rewards) - target) ** 2).mean()
            loss.backward()
            opt.step()
        self.assertFalse(torch.equal(before, self.model.logit.detach()))


suite = unittest.defaultTestLoader.loadTestsFromTestCase(TestReturns)
result = unittest.TextTestRunner(verbosity=0).run(suite)
assert result.wasSuccessful()
assert result.testsRun == 2
print("ok")
