"""expect: GL001 21
dynamic: confirm

A REINFORCE agent encodes observations with a state encoder and samples actions from a policy head, and the optimizer is built over both modules. The encoder is run inside `with torch.no_grad():` in the training loop, so it is never part of the policy-gradient graph and never trains.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


def main():
    torch.manual_seed(0)
    encoder = nn.Sequential(nn.Linear(4, 32), nn.Tanh())
    policy = nn.Linear(32, 2)
    opt = torch.optim.Adam(list(encoder.parameters()) + list(policy.parameters()), lr=1e-2)
    enc_before = [p.detach().clone() for p in encoder.parameters()]
    pol_before = [p.detach().clone() for p in policy.parameters()]

    for episode in range(30):
        obs = torch.randn(32, 4)  # toy contextual bandit: push cart toward the pole's lean
        with torch.no_grad():
            feats = encoder(obs)
        dist = Categorical(logits=policy(feats))
        actions = dist.sample()
        rewards = (actions == (obs[:, 2] > 0).long()).float()
        advantage = rewards - rewards.mean()
        loss = -(dist.log_prob(actions) * advantage).mean()
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is None for p in encoder.parameters())
        assert all(p.grad is not None for p in policy.parameters())
        opt.step()

    assert all(torch.equal(b, p) for b, p in zip(enc_before, encoder.parameters()))
    assert any(not torch.equal(b, p) for b, p in zip(pol_before, policy.parameters()))
    print("C1 ok: encoder under no_grad in the training loop never trains")


if __name__ == "__main__":
    main()
