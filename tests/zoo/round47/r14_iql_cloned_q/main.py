"""
expect: GL001 iql_loss.py:23
dynamic: confirm
source: https://github.com/pytorch/rl/issues/3127

Offline discrete IQL: the loss module receives the actor, a Q-network and a value network, and the user builds
Adam over those three modules, as in the report. With a single Q-network the loss still expands and clones the
passed Q parameters (p.detach()...clone()) into its own ensemble parameters and evaluates Q through them, so the
Q-value loss sends its gradient to the loss-owned copies: the Q-network the optimizer holds keeps .grad None and
its weights never move, while the value and actor networks do train. The asserts show this, then a variant that
evaluates the passed Q-network directly gives it a gradient and moves it.
"""
import torch
import torch.nn as nn

from iql_loss import DiscreteIQLLoss

torch.manual_seed(0)
torch.set_num_threads(1)

N_OBS, N_ACT, B = 3, 4, 32


class QValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(N_OBS + N_ACT, 1)

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


def offline_batch():
    obs = torch.randn(B, N_OBS)
    action = torch.randint(0, N_ACT, (B,))
    reward = torch.randn(B, 1)
    next_obs = obs + 0.1 * torch.randn(B, N_OBS)
    done = (torch.rand(B, 1) < 0.1).float()
    return obs, action, reward, next_obs, done


def run(loss_cls):
    actor, qvalue, value = nn.Linear(N_OBS, N_ACT), QValueNet(), nn.Linear(N_OBS, 1)
    loss_fn = loss_cls(actor, qvalue, value, num_actions=N_ACT)
    optimizer = torch.optim.Adam(list(actor.parameters()) + list(qvalue.parameters()) + list(value.parameters()), lr=1e-2)
    q0 = qvalue.net.weight.detach().clone()
    v0 = value.weight.detach().clone()
    for _ in range(5):
        losses = loss_fn(offline_batch())
        optimizer.zero_grad()
        (losses["loss_actor"] + losses["loss_qvalue"] + losses["loss_value"]).backward()
        optimizer.step()
        loss_fn.update_target()
    return loss_fn, qvalue, q0, value, v0


loss_fn, qvalue, q0, value, v0 = run(DiscreteIQLLoss)
assert qvalue.net.weight.grad is None
assert torch.equal(qvalue.net.weight, q0)
assert loss_fn.qvalue_params[0].grad is not None and loss_fn.qvalue_params[0].grad.abs().sum() > 0
assert not torch.equal(value.weight, v0)
print("Q-network held by the optimizer: no gradient, weights unchanged")


class PassedQIQLLoss(DiscreteIQLLoss):
    def _q(self, params, obs, action_onehot):
        if params is self.target_qvalue_params:
            return super()._q(params, obs, action_onehot)
        return self.qvalue(obs, action_onehot).unsqueeze(0)


loss_fn, qvalue, q0, value, v0 = run(PassedQIQLLoss)
assert qvalue.net.weight.grad is not None and qvalue.net.weight.grad.abs().sum() > 0
assert not torch.equal(qvalue.net.weight, q0)
print("evaluating the passed Q-network trains it")
