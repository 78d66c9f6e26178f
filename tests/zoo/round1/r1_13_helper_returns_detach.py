"""expect: GL001 14
dynamic: confirm
source: https://github.com/lebrice/Sequoia/issues/71

"Encoder doesn't get gradients": a helper that runs the encoder hands back `h.detach()`, and the training step builds the Q-value loss on what the helper returned. The optimizer holds the encoder's parameters, but backward never reaches them: after the step the encoder's .grad is None and only the head trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def encode_obs(encoder, obs):
    h = encoder(obs)
    return h.detach()


torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16))
q_head = nn.Linear(16, 3)
opt = torch.optim.Adam(list(encoder.parameters()) + list(q_head.parameters()), lr=1e-3)

obs = torch.randn(16, 10)
actions = torch.randint(0, 3, (16,))
targets = torch.randn(16)
for _ in range(3):
    q = q_head(encode_obs(encoder, obs)).gather(1, actions[:, None]).squeeze(1)
    loss = F.smooth_l1_loss(q, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()

print("encoder grad:", encoder[0].weight.grad)
print("head grad norm:", q_head.weight.grad.norm().item())
