"""
expect: GL001 brain.py:26, GL003 brain.py:44
dynamic: confirm
source: https://github.com/Phoenix-Shen/ReinforcementLearning/blob/15c0ee0c75bd8d29c756e3d00824a32caec29b39/PolicyGradient/RL_brain.py

A REINFORCE agent written as a reusable class: choose_action() runs the softmax policy,
samples an action with NumPy and stores log pi(a|s) for the episode; learn() weights the
stored log-probabilities by normalized discounted returns and steps Adam. The policy output
is detached in choose_action() (NumPy needs a plain array to sample from), and the stored
log-probabilities are taken from that detached tensor, so the episode loss has no path back
to the network. backward() then failed with "element 0 of tensors does not require grad",
and the author silenced it with policy_loss.requires_grad_(True) in learn(): the loss becomes
a fresh leaf, backward() runs, and Adam steps on parameters whose .grad is None. The asserts
show the weights never move over many episodes and have no gradient, while the same learner
with log-probabilities kept on the graph gets gradients and changes its weights.
"""
import numpy as np
import torch

from brain import PolicyGradient

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)


class ToyEnv:
    """Reward 1 when the action matches the sign of the first observation feature."""

    def __init__(self, horizon=12):
        self.horizon = horizon

    def reset(self):
        self.t = 0
        self.obs = np.random.randn(4).astype(np.float32)
        return self.obs

    def step(self, action):
        reward = 1.0 if action == int(self.obs[0] > 0) else 0.0
        self.t += 1
        self.obs = np.random.randn(4).astype(np.float32)
        return self.obs, reward, self.t >= self.horizon


def run(agent, env, episodes):
    for _ in range(episodes):
        obs, done = env.reset(), False
        while not done:
            a = agent.choose_action(obs)
            nxt, r, done = env.step(a)
            agent.store_transition(obs, a, r)
            obs = nxt
        agent.learn()


env = ToyEnv()
pg = PolicyGradient(n_actions=2, n_features=4, learning_rate=0.02, reward_decay=0.99)
before = [p.detach().clone() for p in pg.net.parameters()]
run(pg, env, episodes=20)
assert all(p.grad is None for p in pg.net.parameters()), "policy should receive no gradient"
assert all(torch.equal(a, b) for a, b in zip(before, pg.net.parameters())), "weights must not move"


class KeptGraph(PolicyGradient):
    def choose_action(self, observation):
        probs = self.net(torch.FloatTensor(observation).unsqueeze(0))
        action = np.random.choice(range(probs.shape[1]), p=probs.detach().squeeze(0).numpy())
        self.ep_saved_log_probs.append(probs.log()[0][action].unsqueeze(0))
        return action


torch.manual_seed(0)
ok = KeptGraph(n_actions=2, n_features=4, learning_rate=0.02, reward_decay=0.99)
before_ok = [p.detach().clone() for p in ok.net.parameters()]
run(ok, env, episodes=20)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in ok.net.parameters())
assert any(not torch.equal(a, b) for a, b in zip(before_ok, ok.net.parameters()))
print("detached policy unchanged after 20 episodes; graph-kept policy updated")
