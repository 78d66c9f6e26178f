"""
expect: GL005 network.py:45
dynamic: confirm
source: https://github.com/toshikwa/gail-airl-ppo.pytorch/issues/13

Imitation learning (GAIL / AIRL pipeline). Before imitation, the repository
trains a SAC expert (train_expert.py) whose rollouts become the demonstrations.
The expert's state-dependent policy splits the network output with chunk() and
clamps the log-std half in place (log_stds.clamp_(-20, 2)). chunk() returns views
of one multi-output op, and modifying such a view in place is refused by
autograd: whenever the policy is sampled with grad enabled, i.e. in the SAC actor
update, the call raises "Output 1 of SplitBackward0 is a view and is being
modified inplace". Exploration runs under no_grad and never notices. The issue's
fix is the out-of-place clamp(). The asserts show that no_grad sampling works,
that the actor update raises on the default path, and that with clamp() the actor
gets a gradient and raises a fixed critic's value of its mean action. The
nn.ReLU(inplace=True) activations are left as in the repository; they are
harmless because no recorded op saved the Linear outputs they overwrite.
"""
import torch

from network import StateDependentPolicy, StateDependentPolicyFixed, TwinnedStateActionFunction

torch.manual_seed(0)
torch.set_num_threads(1)

S_DIM, A_DIM, B = 8, 2, 64


class SACExpert:
    def __init__(self, policy_cls, alpha=0.05):
        torch.manual_seed(1)
        self.actor = policy_cls(S_DIM, A_DIM)
        self.critic = TwinnedStateActionFunction(S_DIM, A_DIM)
        with torch.no_grad():  # stands in for a trained critic with a clear action preference
            for net in (self.critic.net1, self.critic.net2):
                net[-1].weight.mul_(20.0)
        for p in self.critic.parameters():
            p.requires_grad_(False)
        self.optim_actor = torch.optim.Adam(self.actor.parameters(), lr=3e-3)
        self.alpha = alpha

    def explore(self, state):
        with torch.no_grad():
            action, log_pi = self.actor.sample(state)
        return action, log_pi

    def update_actor(self, states):
        actions, log_pis = self.actor.sample(states)
        qs1, qs2 = self.critic(states, actions)
        loss_actor = self.alpha * log_pis.mean() - torch.min(qs1, qs2).mean()
        self.optim_actor.zero_grad()
        loss_actor.backward(retain_graph=False)
        self.optim_actor.step()
        return loss_actor.item(), torch.min(qs1, qs2).mean().item()


states = torch.randn(B, S_DIM)

expert = SACExpert(StateDependentPolicy)
action, _ = expert.explore(states[:1])
assert action.shape == (1, A_DIM)
try:
    expert.update_actor(states)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified inplace" in raised, raised
print("actor update with clamp_ on a chunk view raised:", raised.splitlines()[0][:80])

fixed = SACExpert(StateDependentPolicyFixed)
with torch.no_grad():
    q_first = torch.min(*fixed.critic(states, fixed.actor(states))).mean().item()
fixed.update_actor(states)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.actor.parameters())
for _ in range(200):
    fixed.update_actor(states)
with torch.no_grad():
    q_last = torch.min(*fixed.critic(states, fixed.actor(states))).mean().item()
assert q_last > q_first + 0.02, (q_first, q_last)
print("out-of-place clamp trains the expert actor, Q of its mean action", round(q_first, 4), "->", round(q_last, 4))
