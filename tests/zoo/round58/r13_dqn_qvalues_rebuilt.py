"""
expect: GL002 49, GL003 56
dynamic: confirm
source: https://github.com/jfpettit/flare/blob/2216cbe0dda0ae018a5a46bc6da3607563a5856e/rlpack/algorithms.py#L402-L411

In DQNtraining.update of the rlpack package (rlpack/algorithms.py in jfpettit/flare) the
Q-value of each sampled state is computed one state at a time and the results are
packed with `torch.tensor([torch.max(policy_net(s)) for s in states])` (the original
packs the bootstrap targets the same way, which is harmless for a target; this copy
computes them under no_grad instead). torch.tensor() copies the
numbers out of those tensors, so `qs` is a fresh leaf with no history back to the
policy network. The loss built from it then fails with "element 0 of tensors does not
require grad", and the code silences that with `loss.requires_grad = True`: backward()
now runs, but it only reaches the new leaf. The policy network gets no gradient, and the
clipping and optimizer.step() quietly do nothing (the original clips with
clip_grad_value_, which current torch rejects when no parameter has a gradient, so this
copy uses clip_grad_norm_, which does not). (In that version
target_net is also the same object as policy_net; that is a separate issue and is kept
out of this reproduction.) The asserts show every policy weight has `.grad is None` and
is unchanged after many updates, while the fixed update (Q(s,a) gathered from one
batched forward, target under no_grad) changes the weights and lowers the TD error.
"""
import random
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)

S, A, BS, GAMMA = 4, 2, 32, 0.9


class DQNTraining:
    def __init__(self, policy_net, target_net):
        self.policy_net = policy_net
        self.target_net = target_net
        self.optimizer = torch.optim.RMSprop(self.policy_net.parameters(), lr=1e-2)

    def update(self, batch):
        states = [b[0] for b in batch]
        next_states = [b[2] for b in batch]
        rewards = [b[3] for b in batch]

        qs = torch.tensor([torch.max(self.policy_net(state)) for state in states])
        with torch.no_grad():
            next_vs = torch.stack([torch.max(self.target_net(ns)) for ns in next_states])
        expected_qs = next_vs * GAMMA + torch.tensor(rewards)

        self.optimizer.zero_grad()
        loss = F.smooth_l1_loss(qs, expected_qs)
        loss.requires_grad = True
        loss.backward()
        clip_grad_norm_(self.policy_net.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()

    def update_fixed(self, batch):
        states = torch.stack([b[0] for b in batch])
        actions = torch.tensor([b[1] for b in batch])
        next_states = torch.stack([b[2] for b in batch])
        rewards = torch.tensor([b[3] for b in batch])

        qs = self.policy_net(states).gather(1, actions[:, None]).squeeze(1)
        with torch.no_grad():
            expected_qs = self.target_net(next_states).max(1).values * GAMMA + rewards

        self.optimizer.zero_grad()
        loss = F.smooth_l1_loss(qs, expected_qs)
        loss.backward()
        clip_grad_norm_(self.policy_net.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()


def make_buffer(n=256):
    buf = []
    for _ in range(n):
        s = torch.randn(S)
        a = random.randrange(A)
        buf.append((s, a, s + 0.1 * torch.randn(S), float(s[a] > 0)))
    return buf


def td_error(net, target, buf):
    with torch.no_grad():
        s = torch.stack([b[0] for b in buf])
        a = torch.tensor([b[1] for b in buf])
        ns = torch.stack([b[2] for b in buf])
        r = torch.tensor([b[3] for b in buf])
        q = net(s).gather(1, a[:, None]).squeeze(1)
        return F.smooth_l1_loss(q, target(ns).max(1).values * GAMMA + r).item()


def make_nets():
    policy = nn.Sequential(nn.Linear(S, 32), nn.ReLU(), nn.Linear(32, A))
    target = nn.Sequential(nn.Linear(S, 32), nn.ReLU(), nn.Linear(32, A))
    target.load_state_dict(policy.state_dict())
    return policy, target


if __name__ == "__main__":
    buf = make_buffer()

    policy, target = make_nets()
    agent = DQNTraining(policy, target)
    before = [p.detach().clone() for p in policy.parameters()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about converting grad-tracking tensors
        for _ in range(40):
            agent.update(random.sample(buf, BS))
    assert all(p.grad is None for p in policy.parameters())
    assert all(torch.equal(b, p) for b, p in zip(before, policy.parameters()))

    policy, target = make_nets()
    agent = DQNTraining(policy, target)
    err0 = td_error(policy, target, buf)
    for _ in range(40):
        agent.update_fixed(random.sample(buf, BS))
    assert all(p.grad is not None for p in policy.parameters())
    assert td_error(policy, target, buf) < err0
    print("ok: Q-values rebuilt with torch.tensor never train the policy net; gathered Q-values do")
