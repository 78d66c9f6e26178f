"""
expect: GL002 35
dynamic: confirm
source: https://github.com/KornbergFresnel/ModelRepo/issues/2

The report on this MADDPG code says the actor update of agent i never feeds the actor's
own output into its critic: the actions come from data outside the graph, so the actor
gradient is wrong. Here the trainer reuses the env-facing `agent.act()` (which returns a
numpy array) to build the joint action and rebuilds it with torch.as_tensor, so the
centralised critic's loss has no path back to any actor. The asserts show every actor
weight gets no gradient and does not move, while the fixed update (actor(obs) inside the
graph) gives agent 0 a non-zero gradient.
"""
import torch

from agents import DDPGAgent

torch.manual_seed(0)
torch.set_num_threads(1)

N_AGENTS, OBS, ACT, B = 3, 6, 2, 32
agents = [DDPGAgent(OBS, ACT, N_AGENTS) for _ in range(N_AGENTS)]
obs_all = torch.randn(B, N_AGENTS, OBS)


def joint_obs(obs):
    return obs.reshape(obs.shape[0], -1)


def update_actor(agents, i, obs):
    """MADDPG policy step for agent i, using the current policies of all agents."""
    acts = []
    for j, ag in enumerate(agents):
        a_np = ag.act(obs[:, j])
        acts.append(torch.as_tensor(a_np, dtype=torch.float32))
    q = agents[i].critic(joint_obs(obs), torch.cat(acts, -1))
    loss = -q.mean()
    agents[i].actor_opt.zero_grad()
    loss.backward()
    agents[i].actor_opt.step()
    return loss


def update_actor_fixed(agents, i, obs):
    acts = [ag.actor(obs[:, j]) if j == i else ag.actor(obs[:, j]).detach()
            for j, ag in enumerate(agents)]
    q = agents[i].critic(joint_obs(obs), torch.cat(acts, -1))
    loss = -q.mean()
    agents[i].actor_opt.zero_grad()
    loss.backward()
    return loss


before = [[p.detach().clone() for p in ag.actor.parameters()] for ag in agents]
for step in range(5):
    for i in range(N_AGENTS):
        update_actor(agents, i, obs_all)

for ag, snap in zip(agents, before):
    for p, p0 in zip(ag.actor.parameters(), snap):
        assert p.grad is None, "actor received a gradient"
        assert torch.equal(p, p0), "actor weights moved"

update_actor_fixed(agents, 0, obs_all)
g = sum(p.grad.abs().sum().item() for p in agents[0].actor.parameters())
assert g > 0.0, g
print("buggy MADDPG actor update: no actor gradient; fixed grad sum =", round(g, 4))
