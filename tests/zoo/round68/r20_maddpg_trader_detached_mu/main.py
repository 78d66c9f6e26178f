"""
expect: GL001 maddpg.py:41, GL002 maddpg.py:68
dynamic: confirm
source: https://github.com/Campbell-Rankine/RLLI-Paper/blob/main/Trader_MADDPG/MADDPG.py

Multi-agent RL (MADDPG, one trading agent per stock, with a shared latent market
encoder). The learn() step follows the common MADDPG course code, where each
agent's actor step used to break the next agent's backward with an in-place
error. The project's "Fix T.backwards" commit silenced that error by detaching
the joint action mu (acts.detach().clone()) before the per-agent loop. From then
on the actor loss -Q(s, mu) has no path to any actor: every actor.optimizer.step()
runs with grad None and the policies never change, while the critics keep
training normally. The same method trains the latent encoder from
T.tensor(critic_losses, requires_grad=True), a fresh leaf rebuilt from the
.item() values of the critic losses, so the encoder receives no gradient either.
The asserts show both effects on the default path (actors and encoder untouched,
critics updated) and that the reference update, which keeps each agent's own
action in the graph and the critic losses as tensors, gives non-zero gradients to
actors and encoder and moves them.
"""
import numpy as np
import torch as T

from maddpg import MADDPG

T.manual_seed(0)
T.set_num_threads(1)
np.random.seed(0)

N_AGENTS, RAW, OBS, N_ACT, B = 2, 6, 4, 1, 32


class MultiAgentReplayBuffer:
    def __init__(self):
        self.raw = T.randn(256, N_AGENTS, RAW)
        self.raw_ = self.raw + 0.1 * T.randn(256, N_AGENTS, RAW)
        self.actions = T.rand(256, N_AGENTS, N_ACT) * 2 - 1
        self.rewards = (self.actions.squeeze(-1) * self.raw[:, :, 0]).numpy()
        self.dones = np.zeros((256, N_AGENTS), dtype=bool)

    def sample_buffer(self):
        idx = np.random.choice(256, B, replace=False)
        return (self.raw[idx], self.actions[idx], self.rewards[idx],
                self.raw_[idx], self.dones[idx])


def snapshot(module):
    return [p.detach().clone() for p in module.parameters()]


def changed(module, before):
    return sum((p.detach() - b).abs().sum().item() for p, b in zip(module.parameters(), before))


memory = MultiAgentReplayBuffer()
maddpg = MADDPG(RAW, OBS, ["AAPL", "MSFT"], N_ACT)
actors0 = [snapshot(a.actor) for a in maddpg.agents]
critics0 = [snapshot(a.critic) for a in maddpg.agents]
enc0 = snapshot(maddpg.encoder)
for _ in range(10):
    maddpg.learn(memory)
for a, before in zip(maddpg.agents, actors0):
    assert all(p.grad is None for p in a.actor.parameters())
    assert changed(a.actor, before) == 0.0
for a, before in zip(maddpg.agents, critics0):
    assert changed(a.critic, before) > 0.0
assert all(p.grad is None for p in maddpg.encoder.parameters())
assert changed(maddpg.encoder, enc0) == 0.0
print("default learn(): critics train, actors and latent encoder never receive a gradient")

T.manual_seed(0)
np.random.seed(0)
ref = MADDPG(RAW, OBS, ["AAPL", "MSFT"], N_ACT)
actors0 = [snapshot(a.actor) for a in ref.agents]
enc0 = snapshot(ref.encoder)
for _ in range(10):
    ref.learn_fixed(memory)
for a, before in zip(ref.agents, actors0):
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in a.actor.parameters())
    assert changed(a.actor, before) > 1e-3
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in ref.encoder.parameters())
assert changed(ref.encoder, enc0) > 1e-3
print("reference update trains actors and encoder")
