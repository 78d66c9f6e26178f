"""
expect: GL001 agents.py:19
dynamic: confirm
source: none, invented

Advantage actor-critic on a one-step contextual task, with the networks kept in a dict
`nets = {"policy": ..., "critic": ...}` built and consumed in agents.py. `ac_losses` detaches the
critic's output once (`values = nets["critic"](obs)...detach()`) to form the advantage, which is
right for the policy term, but then reuses the same detached `values` as the prediction in the
value loss. The detach is the critic's only path to the loss, so the critic receives no gradient
and its weights never change, while the policy trains. The asserts show the critic's `.grad is
None` and unchanged weights; with `fresh_value_pass=True` the value loss uses a second, attached
critic call and the critic fits the returns.
"""
import torch

from agents import ac_losses, build_nets

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACTIONS = 6, 3


def rollout(nets, n=256):
    obs = torch.randn(n, OBS)
    with torch.no_grad():
        actions = torch.distributions.Categorical(logits=nets["policy"](obs)).sample()
    returns = (actions == obs[:, :ACTIONS].argmax(-1)).float() + 0.5 * obs[:, -1]
    return {"obs": obs, "actions": actions, "returns": returns}


def train(updates, fresh_value_pass=False):
    nets = build_nets(OBS, ACTIONS)
    params = list(nets["policy"].parameters()) + list(nets["critic"].parameters())
    opt = torch.optim.Adam(params, lr=3e-3)
    critic0 = [p.detach().clone() for p in nets["critic"].parameters()]
    value_losses = []
    for _ in range(updates):
        policy_loss, value_loss = ac_losses(nets, rollout(nets), fresh_value_pass)
        opt.zero_grad()
        (policy_loss + 0.5 * value_loss).backward()
        opt.step()
        value_losses.append(value_loss.item())
    moved = max((p - q).abs().max().item() for p, q in zip(nets["critic"].parameters(), critic0))
    return nets, moved, value_losses


if __name__ == "__main__":
    nets, moved, _ = train(40)
    assert all(p.grad is None for p in nets["critic"].parameters())
    assert moved == 0.0
    assert nets["policy"][0].weight.grad is not None

    nets, moved, vl = train(150, fresh_value_pass=True)
    assert moved > 1e-3
    assert sum(vl[-20:]) / 20 < sum(vl[:20]) / 20
    print("k11_a2c_nets_dict: all checks passed")
