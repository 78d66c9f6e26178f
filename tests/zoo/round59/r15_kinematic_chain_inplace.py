"""
expect: GL005 51
dynamic: confirm
source: https://github.com/nkolot/GraphCMR/issues/19

GraphCMR regresses a human body mesh through a PyTorch port of the SMPL body model.  To pose
the skeleton, SMPL composes every joint's local 4x4 transform with its parent's global one.
The port did this by cloning the stack of local transforms and then overwriting it slice by
slice: `G[:, i] = G[:, parent] @ G_[:, i]`.  The matmul saves the parent slice, which is a
view of the same tensor that the next assignment writes into, so the version counter moves
and a pose-fitting backward through the body model raises "one of the variables needed for
gradient computation has been modified by an inplace operation" (the reporter found it with
a direct backward test; the repo fixed it by collecting the global transforms in a list and
stacking them).  This reproduction fits axis-angle joint rotations of a six-joint chain to
target joint positions.  The asserts catch the inplace error with the slice-assignment
version and show the list-and-stack version reaching the targets.
"""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

PARENT = [-1, 0, 1, 2, 1, 4]
K = len(PARENT)
offsets = torch.tensor([[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0],
                        [0.0, 0.8, 0.0], [1.0, 0.0, 0.0], [0.8, 0.0, 0.0]])


def rodrigues(aa):
    theta = aa.norm(dim=-1, keepdim=True).clamp(min=1e-8)
    kx, ky, kz = (aa / theta).unbind(-1)
    zero = torch.zeros_like(kx)
    K_ = torch.stack([zero, -kz, ky, kz, zero, -kx, -ky, kx, zero], dim=-1)
    K_ = K_.view(aa.shape[:-1] + (3, 3))
    s, c = torch.sin(theta)[..., None], torch.cos(theta)[..., None]
    return torch.eye(3) + s * K_ + (1 - c) * (K_ @ K_)


def local_transforms(pose):
    R = rodrigues(pose.view(-1, K, 3))
    t = offsets[None].expand(R.shape[0], -1, -1)[..., None]
    top = torch.cat([R, t], dim=-1)
    bottom = torch.tensor([0.0, 0.0, 0.0, 1.0]).expand(R.shape[0], K, 1, 4)
    return torch.cat([top, bottom], dim=2)


def joints_slice_assign(pose):
    G_ = local_transforms(pose)
    G = G_.clone()
    for i in range(1, K):
        G[:, i] = torch.matmul(G[:, PARENT[i]], G_[:, i])
    return G[:, :, :3, 3]


def joints_stacked(pose):
    G_ = local_transforms(pose)
    G = [G_[:, 0]]
    for i in range(1, K):
        G.append(torch.matmul(G[PARENT[i]], G_[:, i]))
    return torch.stack(G, dim=1)[:, :, :3, 3]


true_pose = torch.randn(2, K * 3) * 0.6
with torch.no_grad():
    target = joints_stacked(true_pose)

pose = torch.zeros(2, K * 3, requires_grad=True)
try:
    ((joints_slice_assign(pose) - target) ** 2).mean().backward()
    error = None
except RuntimeError as err:
    error = str(err)
assert error is not None and "modified by an inplace operation" in error, error
assert pose.grad is None

pose = (torch.randn(2, K * 3) * 0.05).requires_grad_()
opt = torch.optim.Adam([pose], lr=0.05)
first = None
for step in range(300):
    opt.zero_grad()
    loss = ((joints_stacked(pose) - target) ** 2).mean()
    if first is None:
        first = loss.item()
    loss.backward()
    opt.step()
assert loss.item() < 0.02 * first, (first, loss.item())
print("slice-assigned chain: inplace error caught; stacked chain: joint error %.4f -> %.5f" % (first, loss.item()))
