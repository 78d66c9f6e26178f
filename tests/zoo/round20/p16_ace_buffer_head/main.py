"""
expect: none
dynamic: dismiss
source: https://github.com/nianticlabs/ace/issues/28

A scene-coordinate regression method for visual relocalisation trains only a small MLP head per
scene; the issue asked where the pretrained backbone is frozen, and the asker found the answer:
the training buffer of features is created with the encoder in eval() mode and under
torch.no_grad() before head training starts, so the encoder never receives a gradient, on
purpose. buffer.py builds that buffer and main.py trains the head on it; the program asserts the
head's parameters all get gradients and the regression loss falls, while the encoder (meant to
stay frozen) gets none and does not move.
"""
import torch
import torch.nn as nn

from buffer import FrozenEncoder, create_training_buffer

torch.manual_seed(0)
torch.set_num_threads(1)

encoder = FrozenEncoder()
enc_before = [p.detach().clone() for p in encoder.parameters()]
images = torch.randn(32, 3, 12, 12)
with torch.no_grad():
    true_map = nn.Linear(32, 3)
    scene_coords = true_map(encoder(images).permute(0, 2, 3, 1)).permute(0, 3, 1, 2)

feats, targets = create_training_buffer(encoder, images, scene_coords)
assert not feats.requires_grad

head = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.AdamW(head.parameters(), lr=3e-3)
losses = []
for it in range(200):
    idx = torch.randint(0, len(feats), (512,))
    pred = head(feats[idx])
    loss = (pred - targets[idx]).norm(dim=-1).mean()
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in head.parameters())
    opt.step()
    losses.append(loss.item())

print(f"head regression loss {losses[0]:.3f} -> {losses[-1]:.3f}")
assert losses[-1] < 0.5 * losses[0]
assert all(p.grad is None for p in encoder.parameters())
assert all(torch.equal(a, b) for a, b in zip(enc_before, encoder.parameters())), "encoder frozen by design"
print("OK")
