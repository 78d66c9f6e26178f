"""expect: GL002 main.py:46
dynamic: confirm
source: https://github.com/coleam00/Archon/pull/821

A trainer for a self-organising network (evolver.py): every step it fits the task weights, then asks a small
mutation policy to grow, prune or keep hidden units, and updates that policy with REINFORCE. As flagged in the review
of the linked pull request, evolve_with_policy hands back the log-probability as a Python float (.item()), and the
trainer wraps that number in a fresh tensor (here with requires_grad=True so that backward runs) before building
-(log_prob * reward). The rebuilt leaf has no history, so backward stops at it: the policy network never receives a
gradient and policy_opt.step() is a no-op, while the task loss keeps training normally and nothing looks wrong. (The
reviewed code also called evolve_with_policy under torch.no_grad(); that is left out here so the rebuild is the only
cut.) The asserts show zero policy gradients and unchanged policy weights, and that returning the log-probability
tensor itself trains the policy.
"""
import torch
import torch.nn.functional as F

from torch.distributions import Categorical

from evolver import EvolvingNet

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(128, 4)
y = (x[:, :1] * 2 - x[:, 1:2]).tanh()


def train(model, steps=30, keep_graph=False):
    task_params = list(model.fc1.parameters()) + list(model.fc2.parameters())
    task_opt = torch.optim.Adam(task_params, lr=1e-2)
    policy_opt = torch.optim.SGD(model.policy.parameters(), lr=0.5)
    policy_grad_norm = 0.0
    for step in range(steps):
        task_opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        task_opt.step()

        epsilon = max(0.05, 1.0 - step / steps)
        if keep_graph:
            stats = model.evolve_with_policy_tensor(loss.item(), epsilon)
            log_prob = stats["log_prob"]
        else:
            stats = model.evolve_with_policy(loss.item(), epsilon)
            log_prob = torch.tensor(stats["log_prob"], requires_grad=True)
        reward = torch.tensor(stats["total_reward"])
        policy_loss = -(log_prob * reward)
        policy_opt.zero_grad()
        policy_loss.backward()
        policy_grad_norm += sum(float(p.grad.abs().sum()) for p in model.policy.parameters() if p.grad is not None)
        policy_opt.step()
    return loss.item(), policy_grad_norm


class TensorLogProbNet(EvolvingNet):
    def evolve_with_policy_tensor(self, task_loss, epsilon):
        state = torch.tensor([[task_loss, epsilon]])
        dist = Categorical(logits=self.policy(state))
        op = dist.sample()
        return {"total_reward": self.apply_op(int(op.item())), "log_prob": dist.log_prob(op)}


torch.manual_seed(1)
buggy = EvolvingNet()
policy_before = [p.clone() for p in buggy.policy.parameters()]
task_before = buggy.fc1.weight.clone()
final_loss, grad_norm = train(buggy)
assert grad_norm == 0.0
assert all(torch.equal(b, p) for b, p in zip(policy_before, buggy.policy.parameters()))
assert not torch.equal(task_before, buggy.fc1.weight)  # the task part trains, so nothing looks broken

torch.manual_seed(1)
fixed = TensorLogProbNet()
policy_before = [p.clone() for p in fixed.policy.parameters()]
_, fixed_grad_norm = train(fixed, keep_graph=True)
assert fixed_grad_norm > 0.0
assert any(not torch.equal(b, p) for b, p in zip(policy_before, fixed.policy.parameters()))
print("policy grad mass, rebuilt log-prob: %.1f  tensor log-prob: %.3f  (task loss %.3f)"
      % (grad_norm, fixed_grad_norm, final_loss))
