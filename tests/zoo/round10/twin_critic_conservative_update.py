"""
expect: none
dynamic: dismiss
source: https://github.com/yihaosun1124/OfflineRL-Kit/issues/15

OfflineRL-Kit issue #15 asks why, in combo.py, `critic1_loss.backward(
retain_graph=True)` is needed and observes that removing it causes a "backward
through the graph a second time" error: the two critics' conservative (CQL)
terms share an intermediate, the policy actions sampled once per update. This
program has the same structure in a plain ConservativeCriticUpdate class: both
critic losses use the same policy-sampled actions, critic 1 is backpropagated
with retain_graph=True so critic 2 can reuse that shared part of the graph, and
nothing from the step is kept afterwards (targets are computed under no_grad,
no state is carried between updates). The asserts show each critic's gradient
equals a reference computed from a fresh forward pass, and that the graph
built per update has a constant size over many updates (no growth).
"""
import torch
import torch.nn as nn


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 32), nn.ReLU(), nn.Linear(32, o))


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.q = mlp(obs_dim + act_dim, 1)

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], -1))


class ConservativeCriticUpdate:
    def __init__(self, obs_dim=5, act_dim=2, n_repeat=4):
        self.actor = mlp(obs_dim, act_dim)
        self.critic1, self.critic2 = Critic(obs_dim, act_dim), Critic(obs_dim, act_dim)
        self.critic1_optim = torch.optim.Adam(self.critic1.parameters(), lr=1e-3)
        self.critic2_optim = torch.optim.Adam(self.critic2.parameters(), lr=1e-3)
        self.n_repeat = n_repeat

    def losses(self, obs, act, rew, next_obs):
        with torch.no_grad():
            next_a = torch.tanh(self.actor(next_obs))
            target = rew + 0.99 * torch.min(self.critic1(next_obs, next_a), self.critic2(next_obs, next_a))
        rep_obs = obs.repeat_interleave(self.n_repeat, 0)
        pi_act = torch.tanh(self.actor(rep_obs) + 0.1 * torch.randn(rep_obs.shape[0], act.shape[1]))
        out = []
        for critic in (self.critic1, self.critic2):
            td = (critic(obs, act) - target).pow(2).mean()
            pi_q = critic(rep_obs, pi_act).view(-1, self.n_repeat)
            cql = torch.logsumexp(pi_q, dim=1).mean() - critic(obs, act).mean()
            out.append(td + cql)
        return out

    def learn(self, batch):
        critic1_loss, critic2_loss = self.losses(*batch)
        self.critic1_optim.zero_grad()
        critic1_loss.backward(retain_graph=True)
        g1 = [p.grad.clone() for p in self.critic1.parameters()]
        self.critic1_optim.step()
        self.critic2_optim.zero_grad()
        critic2_loss.backward()
        g2 = [p.grad.clone() for p in self.critic2.parameters()]
        self.critic2_optim.step()
        return critic1_loss, g1, g2


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def main():
    torch.manual_seed(0)
    algo = ConservativeCriticUpdate()
    sizes = []
    for step in range(8):
        batch = (torch.randn(16, 5), torch.rand(16, 2) * 2 - 1, torch.randn(16, 1), torch.randn(16, 5))
        c1_state = {k: v.clone() for k, v in algo.critic1.state_dict().items()}
        c2_state = {k: v.clone() for k, v in algo.critic2.state_dict().items()}
        rng = torch.get_rng_state()
        loss1, g1, g2 = algo.learn(batch)
        sizes.append(graph_size(loss1))

        ref = ConservativeCriticUpdate()
        ref.actor.load_state_dict(algo.actor.state_dict())
        ref.critic1.load_state_dict(c1_state)
        ref.critic2.load_state_dict(c2_state)
        torch.set_rng_state(rng)
        r1, r2 = ref.losses(*batch)
        ref_g1 = torch.autograd.grad(r1, list(ref.critic1.parameters()))
        ref_g2 = torch.autograd.grad(r2, list(ref.critic2.parameters()))
        assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g1, ref_g1))
        assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g2, ref_g2))
    assert len(set(sizes)) == 1, sizes
    print("retain_graph reuses the shared policy actions within one update only")


if __name__ == "__main__":
    main()
