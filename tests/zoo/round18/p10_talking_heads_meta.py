"""
expect: GL005 58
dynamic: confirm
source: https://github.com/grey-eye/talking-heads/pull/7

grey-eye/talking-heads (few-shot adversarial talking-head meta-learning) trained embedder E,
generator G and discriminator D by computing `loss = loss_E_G + loss_D`, calling
`loss.backward(retain_graph=True)`, stepping optimizer_E_G and optimizer_D, and then
"optimising D again" with `D(G(y_t, e_hat), y_t, i)` - a second backward that runs through
`e_hat`, i.e. through the embedder graph recorded before optimizer_E_G.step() changed E's
weights in place. The PR replaced this with a plain backward and `G(y_t, e_hat).detach()`.
(On the PyTorch of the time this silently used stale saved weights; current PyTorch's
version counter catches it.) This program rebuilds the meta-training step with small
MLP stand-ins for E, G, D. The asserts show the second backward raises "modified by an
inplace operation" because of the optimizer step between the two backward calls, and the
PR's version trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D_IMG, D_LMK, D_E, K = 12, 6, 8, 4

E = nn.Sequential(nn.Linear(D_IMG + D_LMK, 16), nn.ReLU(), nn.Linear(16, D_E))
G = nn.Sequential(nn.Linear(D_LMK + D_E, 16), nn.ReLU(), nn.Linear(16, D_IMG))
D = nn.Sequential(nn.Linear(D_IMG + D_LMK, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optimizer_E_G = torch.optim.Adam(list(E.parameters()) + list(G.parameters()), lr=1e-3)
optimizer_D = torch.optim.Adam(D.parameters(), lr=1e-3)


def video_batch():
    frames, landmarks = torch.randn(K + 1, 2, D_IMG), torch.randn(K + 1, 2, D_LMK)
    return frames, landmarks


def hinge_d(r_x, r_x_hat):
    return F.relu(1.0 - r_x).mean() + F.relu(1.0 + r_x_hat).mean()


def meta_train_step(detach_second_pass):
    frames, landmarks = video_batch()
    e_vectors = [E(torch.cat([frames[s], landmarks[s]], -1)) for s in range(K)]
    e_hat = torch.stack(e_vectors).mean(dim=0)
    x_t, y_t = frames[K], landmarks[K]
    x_hat = G(torch.cat([y_t, e_hat], -1))
    r_x_hat = D(torch.cat([x_hat, y_t], -1))
    r_x = D(torch.cat([x_t, y_t], -1))
    optimizer_E_G.zero_grad()
    optimizer_D.zero_grad()
    loss_E_G = F.l1_loss(x_hat, x_t) - r_x_hat.mean()
    loss_D = hinge_d(r_x, r_x_hat)
    loss = loss_E_G + loss_D
    if detach_second_pass:
        loss.backward()
    else:
        loss.backward(retain_graph=True)
    optimizer_E_G.step()
    optimizer_D.step()

    # Optimize D again
    x_hat2 = G(torch.cat([y_t, e_hat], -1))
    if detach_second_pass:
        x_hat2 = x_hat2.detach()
    r_x_hat = D(torch.cat([x_hat2, y_t], -1))
    r_x = D(torch.cat([x_t, y_t], -1))
    optimizer_D.zero_grad()
    loss_D = hinge_d(r_x, r_x_hat)
    loss_D.backward()
    optimizer_D.step()
    return loss_E_G.item()


if __name__ == "__main__":
    try:
        meta_train_step(detach_second_pass=False)
        raise AssertionError("expected the second backward to hit E's updated weights")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e

    w0 = E[2].weight.detach().clone()
    losses = [meta_train_step(detach_second_pass=True) for _ in range(20)]
    assert not torch.equal(E[2].weight.detach(), w0)
    print("OK: optimizer_E_G.step() between backwards breaks D's second pass; detach fixes it")
