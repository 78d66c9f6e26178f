"""
expect: none
dynamic: dismiss
source: none, invented

DQN on a six-state corridor (move left or right, reward 1 for stepping onto the right end), trained from
uniformly sampled transitions. agent_utils.polyak(online, target) receives both Q-networks and writes
`tau * p + (1 - tau) * p_targ` into each target parameter with `.data =`. The blend is computed inside
torch.no_grad() on purpose: the target network is a slowly moving copy that must not receive gradients, and the
TD target built from it is also computed under no_grad. The online network is trained by its own TD loss. The
asserts show the online network learns to prefer "right" in every non-terminal state, the target parameters
carry no history and change, and the target stays close to the online network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from agent_utils import make_target, param_distance, polyak

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATES, GAMMA = 6, 0.9


def transitions(n=128):
    s = torch.randint(0, N_STATES - 1, (n,))
    a = torch.randint(0, 2, (n,))
    s2 = torch.clamp(s + torch.where(a == 1, 1, -1), 0, N_STATES - 1)
    r = (s2 == N_STATES - 1).float()
    done = r.clone()
    return F.one_hot(s, N_STATES).float(), a, r, F.one_hot(s2, N_STATES).float(), done


def main():
    q_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, 2))
    q_target = make_target(q_net)
    opt = torch.optim.Adam(q_net.parameters(), lr=3e-3)
    targ_start = [p.detach().clone() for p in q_target.parameters()]

    for step in range(1500):
        s, a, r, s2, done = transitions()
        with torch.no_grad():
            y = r + GAMMA * (1 - done) * q_target(s2).max(dim=1).values
        q_sa = q_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
        loss = F.smooth_l1_loss(q_sa, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        polyak(q_net, q_target, tau=0.02)

    with torch.no_grad():
        q = q_net(torch.eye(N_STATES))[: N_STATES - 1]
    assert bool((q[:, 1] > q[:, 0]).all()), q
    assert all(not p.requires_grad and p.grad_fn is None for p in q_target.parameters())
    assert all(not torch.equal(p, p0) for p, p0 in zip(q_target.parameters(), targ_start))
    assert param_distance(q_net, q_target) < 0.5
    print("k08: greedy policy moves right in every state")


if __name__ == "__main__":
    main()
