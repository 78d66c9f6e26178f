"""
expect: none
dynamic: dismiss
source: none, invented

A TD3 agent (agent.py) whose twin critic has two members, `critic.q1` and `critic.q2`, each with its own Adam
optimizer built from that member's parameters. `update` builds both critic losses up front, then runs
backward and `q1_opt.step()` for the first and only afterwards the backward of `q2_loss`. That order is fine:
`q2_loss` goes only through `critic.q2` (its Bellman target comes from the target networks under no_grad), so
stepping q1 does not touch anything the pending backward needs. The actor loss is built after both critic
steps. The asserts run the agent on a one-step control task with a known best action and show that q1, q2 and
the actor all change, the critic losses drop and the policy moves toward the best action.
"""
import torch

from agent import TD3Agent

torch.manual_seed(0)
torch.set_num_threads(1)

OBS_DIM, ACT_DIM = 4, 2
GOAL = torch.randn(OBS_DIM, ACT_DIM) * 0.5


def best_action(obs):
    return torch.tanh(obs @ GOAL)


def reward(obs, act):
    return -((act - best_action(obs)) ** 2).sum(-1, keepdim=True)


def fill_buffer(n=4096):
    obs = torch.randn(n, OBS_DIM)
    act = torch.rand(n, ACT_DIM) * 2 - 1
    rew = reward(obs, act)
    next_obs = torch.randn(n, OBS_DIM)
    done = torch.ones(n, 1)
    return obs, act, rew, next_obs, done


def main():
    buffer = fill_buffer()
    agent = TD3Agent(OBS_DIM, ACT_DIM)
    snapshots = {name: [p.detach().clone() for p in net.parameters()]
                 for name, net in [("q1", agent.critic.q1), ("q2", agent.critic.q2), ("actor", agent.actor)]}
    probe = torch.randn(256, OBS_DIM)
    with torch.no_grad():
        gap_before = ((agent.actor(probe) - best_action(probe)) ** 2).sum(-1).mean().item()

    history = []
    for it in range(1500):
        idx = torch.randint(0, buffer[0].shape[0], (128,))
        history.append(agent.update(*(t[idx] for t in buffer)))

    early = sum(h["q1_loss"] + h["q2_loss"] for h in history[:50]) / 50
    late = sum(h["q1_loss"] + h["q2_loss"] for h in history[-50:]) / 50
    with torch.no_grad():
        gap_after = ((agent.actor(probe) - best_action(probe)) ** 2).sum(-1).mean().item()

    for name, net in [("q1", agent.critic.q1), ("q2", agent.critic.q2), ("actor", agent.actor)]:
        assert not any(torch.equal(a, b) for a, b in zip(snapshots[name], net.parameters())), name
    assert late < 0.5 * early, (early, late)
    assert gap_after < 0.5 * gap_before, (gap_before, gap_after)
    print(f"critic loss {early:.3f} -> {late:.3f}, action gap {gap_before:.3f} -> {gap_after:.3f}")


if __name__ == "__main__":
    main()
