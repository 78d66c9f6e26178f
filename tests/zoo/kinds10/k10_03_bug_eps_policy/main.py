"""
expect: GL005 main.py:30
dynamic: error
source: kinds check 10, kind 3

REINFORCE on a toy discrete task: the policy's softmax probabilities are
smoothed towards uniform by exploration.mix_uniform_, which edits its argument
in place (mul_/add_). Softmax saved its output for backward, so the helper
corrupts a saved tensor and loss.backward() raises a RuntimeError.
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
    mix_uniform_(probs, epsilon)
    actions = sample_actions(probs)
    chosen = probs.gather(1, actions.unsqueeze(1)).squeeze(1)
    return -(torch.log(chosen) * returns).mean()


def main():
    policy = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh(), nn.Linear(32, N_ACTIONS))
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
    states, returns = fake_rollout()
    eps = linear_epsilon(step=10)

    loss = policy_loss(policy, states, returns, eps)
    optimizer.zero_grad()
    raised = False
    try:
        loss.backward()
    except RuntimeError as err:
        raised = "modified by an inplace operation" in str(err)
    assert raised, "softmax output was edited in place; backward should fail"
    assert all(p.grad is None for p in policy.parameters())
    print("OK")


if __name__ == "__main__":
    main()
