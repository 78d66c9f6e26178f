"""expect: GL001 envs.py:52
dynamic: confirm
source: https://github.com/alexhernandezgarcia/gflownet/pull/251

In the gflownet library the base environment's get_logprobs() started copying the policy
outputs with .clone().detach() (to stop the in-place masking from mutating the caller's
tensor).  Trajectory Balance then still trained logZ, but the forward policy received no
gradient at all; "the reason why TB was not training well" was fixed by dropping .detach().
"""
import torch
import torch.nn as nn

from envs import GridEnv


class GFlowNetAgent:
    def __init__(self, env, hidden=32, lr=1e-2, lr_z=1e-1):
        self.env = env
        self.forward_policy = nn.Sequential(
            nn.Linear(env.n_dim * env.length, hidden), nn.LeakyReLU(),
            nn.Linear(hidden, env.policy_output_dim),
        )
        self.logZ = nn.Parameter(torch.zeros(1))
        self.opt = torch.optim.Adam([
            {"params": self.forward_policy.parameters(), "lr": lr},
            {"params": [self.logZ], "lr": lr_z},
        ])

    def sample_batch(self, n_trajectories):
        batch = []
        for _ in range(n_trajectories):
            env = GridEnv(self.env.n_dim, self.env.length).reset()
            traj = []
            while not env.done:
                mask = torch.tensor([env.get_mask_invalid_actions_forward()])
                with torch.no_grad():
                    out = self.forward_policy(env.state2policy([env.state]))
                action = int(env.sample_actions(out, mask)[0])
                traj.append((list(env.state), action, mask[0]))
                env.step(action)
            batch.append((traj, env.reward(env.state)))
        return batch

    def trajectorybalance_loss(self, batch):
        losses = []
        for traj, reward in batch:
            states = [s for s, _, _ in traj]
            actions = torch.tensor([a for _, a, _ in traj])
            masks = torch.stack([m for _, _, m in traj])
            policy_outputs = self.forward_policy(self.env.state2policy(states))
            logprobs = self.env.get_logprobs(policy_outputs, actions, masks)
            losses.append((self.logZ + logprobs.sum() - torch.log(reward)).pow(2))
        return torch.stack(losses).mean()

    def train_step(self, n_trajectories=8):
        batch = self.sample_batch(n_trajectories)
        loss = self.trajectorybalance_loss(batch)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = GFlowNetAgent(GridEnv(n_dim=2, length=4))
    w0 = agent.forward_policy[0].weight.detach().clone()
    for _ in range(2):
        agent.train_step(n_trajectories=4)
    assert agent.logZ.grad is not None and agent.logZ.grad.abs().item() > 0
    assert all(p.grad is None for p in agent.forward_policy.parameters())
    assert torch.equal(agent.forward_policy[0].weight, w0)
    print("logZ trains, the forward policy never gets a gradient")
