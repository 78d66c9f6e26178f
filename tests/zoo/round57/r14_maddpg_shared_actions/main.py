"""
expect: GL004 maddpg.py:61
dynamic: confirm
source: https://github.com/0x00000499/MADDPG/blob/73bf9c95096cabf048da91d7dfb9e625500df060/maddpg/maddpg_algo.py#L99

MADDPG: every agent has a centralised critic Q_i(s, a_1..a_n) and its actor
should follow dQ_i/da_i only. The original learn() runs each actor once, concatenates
all current-policy actions into one tensor before the per-agent loop, and then,
per agent, computes -Q_i(s, actions), zeroes only that agent's actor gradients
and calls actor_loss.backward(retain_graph=True); the actor steps are deferred
until after the loop (a code comment says this was done to dodge the in-place
error). retain_graph=True is needed only because every loss back-propagates
through the same actor forwards again, which is exactly the problem: each
backward also pours -dQ_i/da_j into every other agent's actor, and because the
zeroing happens per agent, actor 0 ends up with the sum of all critics' gradients,
actor 1 with critics 1..n, and only the last actor gets its own. Without the
flag the second backward raises; with it the run is silent and wrong. The asserts
show actor 0's gradient equals the sum over all critics and differs from its own
MADDPG gradient, the last actor's gradient matches its own, a plain backward
through the shared actions raises, and with the other agents' actions detached
every actor receives exactly its own gradient.
"""
import torch

from maddpg import MADDPG

torch.manual_seed(0)
torch.set_num_threads(1)

N, OBS, ACT, B = 3, 5, 2, 64


def make_batch():
    obs = [torch.randn(B, OBS) for _ in range(N)]
    next_obs = [torch.randn(B, OBS) for _ in range(N)]
    actions = [torch.rand(B, ACT) * 2 - 1 for _ in range(N)]
    return (torch.cat(obs, 1), obs, actions, torch.randn(B, N),
            torch.cat(next_obs, 1), next_obs, torch.zeros(B))


def actor_grads(algo, i):
    return [p.grad.clone() for p in algo.agents[i].actor.parameters()]


def dq_grads(algo, batch, critic_idx, actor_idx, others_detached):
    """-dQ_critic/d(theta_actor) with a fresh forward of all actors."""
    state, obs = batch[0], batch[1]
    acts = [ag.actor(obs[j]) for j, ag in enumerate(algo.agents)]
    if others_detached:
        acts = [a if j == actor_idx else a.detach() for j, a in enumerate(acts)]
    ag = algo.agents[critic_idx]
    loss = -ag.q(ag.critic, state, torch.cat(acts, 1)).mean()
    return torch.autograd.grad(loss, list(algo.agents[actor_idx].actor.parameters()))


def close(g1, g2):
    return all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g1, g2))


batch = make_batch()

# buggy learn (stop before the deferred actor step so the gradients can be read)
torch.manual_seed(1)
algo = MADDPG(N, OBS, ACT)
algo.learn(batch, fixed=False, step_actors=False)
g0 = actor_grads(algo, 0)
own0 = dq_grads(algo, batch, 0, 0, others_detached=True)
summed0 = [sum(gs) for gs in zip(*[dq_grads(algo, batch, i, 0, others_detached=False) for i in range(N)])]
assert close(g0, summed0), "actor 0 accumulated every critic's gradient"
assert not close(g0, own0), "actor 0 did not get its own MADDPG gradient"
assert close(actor_grads(algo, N - 1), dq_grads(algo, batch, N - 1, N - 1, True)), "last actor is unaffected"

# the flag is what hides the problem: a plain second backward through the shared actions fails
acts = torch.cat([ag.actor(batch[1][j]) for j, ag in enumerate(algo.agents)], 1)
(-algo.agents[0].q(algo.agents[0].critic, batch[0], acts).mean()).backward()
try:
    (-algo.agents[1].q(algo.agents[1].critic, batch[0], acts).mean()).backward()
    raise AssertionError("expected a second-backward error")
except RuntimeError as e:
    assert "second time" in str(e)

# fixed learn: every actor receives exactly its own gradient
torch.manual_seed(1)
algo_f = MADDPG(N, OBS, ACT)
algo_f.learn(batch, fixed=True, step_actors=False)
for i in range(N):
    assert close(actor_grads(algo_f, i), dq_grads(algo_f, batch, i, i, True)), i

# both versions still run end to end
algo.learn(make_batch(), fixed=False)
algo_f.learn(make_batch(), fixed=True)
print("shared-action backward: actor 0 gradient = sum of %d critics; fixed: own critic only" % N)
