"""
expect: GL003 bc_agent.py:68
dynamic: confirm
source: https://github.com/xbpeng/rl_assignments/pull/1

The behavior-cloning assignment ships a BCAgent whose _compute_actor_loss is a
placeholder returning torch.zeros(1); the framework's optimizer wrapper calls
loss.backward() inside step(loss), so the placeholder raises "element 0 of
tensors does not require grad". The pull request proposed building the
placeholder as torch.zeros(1, requires_grad=True) so the template runs. That
only silences the error: the loss becomes a fresh leaf, and anything a student
adds to it that does not go through the policy network (here: the actions that
were sampled and stored during the rollout, compared with the expert's labels)
still has no path to the policy weights. Training "runs", prints a loss, and the
policy never moves. The asserts show that after 100 optimizer steps every policy
parameter (and the log-std) is bit-identical and has no gradient, while the
fixed loss (negative log-likelihood of the expert action under the policy's own
distribution) pulls the policy mean onto the expert.
"""
import torch
import torch.nn as nn

from bc_agent import BCAgent

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT = 6, 2


def make_expert():
    expert = nn.Linear(OBS, ACT)
    for p in expert.parameters():
        p.requires_grad_(False)
    return expert


def imitation_error(agent, obs):
    with torch.no_grad():
        return ((agent.policy(obs) - agent.expert(obs)) ** 2).mean().item()


def run(fixed):
    torch.manual_seed(0)
    expert = make_expert()
    agent = BCAgent(OBS, ACT, expert, fixed=fixed)
    before = [p.detach().clone() for p in agent.optimizer.params]
    test_obs = torch.randn(256, OBS)
    err0 = imitation_error(agent, test_obs)
    for _ in range(5):
        obs = torch.randn(128, OBS)
        agent.rollout(obs)
        agent.update()
    err1 = imitation_error(agent, test_obs)
    moved = any(not torch.equal(b, p.detach()) for b, p in zip(before, agent.optimizer.params))
    grads = [p.grad for p in agent.optimizer.params]
    return err0, err1, moved, grads


err0, err1, moved, grads = run(fixed=False)
assert not moved, "buggy BC: policy should not move"
assert all(g is None for g in grads), "buggy BC: no gradient reaches the policy"
assert abs(err1 - err0) < 1e-12

err0_f, err1_f, moved_f, grads_f = run(fixed=True)
assert moved_f
assert all(g is not None for g in grads_f)
assert err1_f < 0.2 * err0_f, (err0_f, err1_f)

print("placeholder loss: imitation error %.4f -> %.4f (policy frozen)" % (err0, err1))
print("fixed loss:       imitation error %.4f -> %.4f" % (err0_f, err1_f))
