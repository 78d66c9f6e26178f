"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 3

REINFORCE with epsilon-smoothed action probabilities: main passes a clone of
the softmax output to exploration.mix_uniform_, so the in-place helper edits
the copy (CloneBackward saves nothing) and softmax's saved output stays intact.
Backward succeeds and every policy layer gets a gradient.
"""
import torch
import torch.nn as nn

from exploration import linear_epsilon, mix_uniform_, sample_actions

torch.manual_seed(0)

OBS_DIM, N_ACTIONS = 4, 3


def fake_rollout(batch=8):
    states = torch.randn(batch, OBS_DIM)
    returns = torch.randn(batch)
    return states, (returns - returns.mean()) / (returns.std() + 1e-6)


def policy_loss(policy, states, returns, epsilon):
    logits = policy(states)
    probs = torch.softmax(logits, dim=-1)
    behaviour = mix_uniform_(probs.clone(), epsilon)
    actions = sample_actions(behaviour)
    chosen = behaviour.gather(1, actions.unsqueeze(1)).squeeze(1)
    return -(torch.log(chosen) * returns).mean()


def main():
    policy = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh(), nn.Linear(32, N_ACTIONS))
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    before = [p.detach().clone() for p in policy.parameters()]

    for step in range(3):
        states, returns = fake_rollout()
        loss = policy_loss(policy, states, returns, linear_epsilon(step))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    for p, old in zip(policy.parameters(), before):
        assert p.grad is not None and p.grad.abs().sum() > 0
        assert not torch.equal(p, old)
    print("OK")


if __name__ == "__main__":
    main()
