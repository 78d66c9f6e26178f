"""
expect: GL004 57, GL005 58
dynamic: confirm
source: https://discuss.pytorch.org/t/pytorch-runtimeerror-trying-to-backward-through-the-graph-a-second-time/191396

The forum post describes a hand-written PPO: at every time step of an episode the
value functions V(s) and Q(s,a) are each fitted with their own gradient step, the
advantage A = Q - V is formed from those same outputs, and the clipped surrogate for
that step is stored; at the end of the episode the stored surrogates are averaged and
a gradient-ascent step is taken on the policy. That end-of-episode backward failed with
"Trying to backward through the graph a second time", people suggested
`retain_graph=True`, and the poster then hit an in-place-modification error. The
mechanism: each stored surrogate keeps the graph of V and Q from its step (the list is
a running buffer that carries graph from step to step), the per-step value backward
frees that graph (hence the first error), `retain_graph=True` keeps every step's graph
alive for the whole episode, and the value optimizer's step() then rewrites, in place,
the very weights those retained graphs saved. The asserts show the episode backward
raising "modified by an inplace operation" and the policy weights never changing,
while the fixed update (advantage detached, no retain_graph) trains the policy.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

S, A, T = 4, 3, 12
EPS = 0.2


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 32), nn.Tanh(), nn.Linear(32, o))


class Agent:
    def __init__(self):
        self.policy = mlp(S, A)
        self.v_net = mlp(S, 1)
        self.q_net = mlp(S + A, 1)
        self.pi_opt = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.value_opt = torch.optim.SGD(
            list(self.v_net.parameters()) + list(self.q_net.parameters()), lr=1e-2)

    def run_episode(self, states, actions, returns, old_logp, detach_adv):
        surrogates = []
        for t in range(T):
            s, a, g = states[t], actions[t], returns[t]
            v = self.v_net(s)
            q = self.q_net(torch.cat([s, nn.functional.one_hot(a, A).float()]))
            # fit the two value functions on this step
            v_loss = (v - g).pow(2).mean()
            q_loss = (q - g).pow(2).mean()
            self.value_opt.zero_grad()
            if detach_adv:
                (v_loss + q_loss).backward()
            else:
                (v_loss + q_loss).backward(retain_graph=True)
            self.value_opt.step()
            adv = (q - v).detach() if detach_adv else (q - v)
            logp = torch.log_softmax(self.policy(s), -1)[a]
            ratio = torch.exp(logp - old_logp[t])
            surrogates.append(torch.min(ratio * adv, ratio.clamp(1 - EPS, 1 + EPS) * adv))
        # gradient ascent on the mean clipped surrogate
        self.pi_opt.zero_grad()
        (-torch.stack(surrogates).mean()).backward()
        self.pi_opt.step()


def make_rollout():
    states = torch.randn(T, S)
    actions = torch.randint(0, A, (T,))
    returns = torch.randn(T, 1)
    old_logp = torch.log(torch.full((T,), 1.0 / A))
    return states, actions, returns, old_logp


if __name__ == "__main__":
    agent = Agent()
    before = [p.detach().clone() for p in agent.policy.parameters()]
    try:
        agent.run_episode(*make_rollout(), detach_adv=False)
        raise AssertionError("expected the episode backward to fail")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
    assert all(torch.equal(b, p) for b, p in zip(before, agent.policy.parameters()))

    agent = Agent()
    before = [p.detach().clone() for p in agent.policy.parameters()]
    for _ in range(3):
        agent.run_episode(*make_rollout(), detach_adv=True)
    assert any(not torch.equal(b, p) for b, p in zip(before, agent.policy.parameters()))
    print("ok: retain_graph + in-place value steps break the policy update; detached advantage trains")
