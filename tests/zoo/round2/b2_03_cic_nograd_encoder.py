"""expect: GL001 29
dynamic: confirm
source: https://github.com/rll-research/cic/issues/5

An unsupervised RL agent augments and encodes pixel observations with a CNN
encoder and then trains its critic on the encoded features. The update method
runs the augment-and-encode helper inside `torch.no_grad()`, so the encoder's
weights never receive a gradient during pre-training, although they sit in the
optimizer. The issue points at this line as the reason the encoder is frozen.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Agent:
    def __init__(self):
        self.encoder = nn.Sequential(nn.Linear(12, 16), nn.ReLU())
        self.critic = nn.Linear(16 + 2, 1)
        params = list(self.encoder.parameters()) + list(self.critic.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-3)

    def aug_and_encode(self, obs):
        obs = obs + 0.01 * torch.randn_like(obs)
        return self.encoder(obs)

    def update_critic(self, obs, action, reward):
        with torch.no_grad():
            obs = self.aug_and_encode(obs)
        q = self.critic(torch.cat([obs, action], dim=-1))
        loss = F.mse_loss(q, reward)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = Agent()
    before = agent.encoder[0].weight.clone()
    agent.update_critic(torch.randn(8, 12), torch.randn(8, 2), torch.randn(8, 1))
    assert agent.encoder[0].weight.grad is None
    assert torch.equal(before, agent.encoder[0].weight)
    assert agent.critic.weight.grad.abs().sum() > 0
    print("ok: encoder never trained")
