"""
expect: none
dynamic: dismiss
source: https://github.com/HRNet/HigherHRNet-Human-Pose-Estimation/blob/master/lib/core/loss.py

Bottom-up pose estimation with associative embedding: besides heatmaps the network
predicts a tag map per joint, and the AE loss pulls the tags of one person together and
pushes the mean tags of different people apart. The loss moves the ground-truth joint
table to NumPy with joints.cpu().data.numpy() and loops over it in Python, and images
without people return a constant zero built from a plain tensor. Both look like cuts,
but the NumPy array only holds integer indices and visibility flags used to pick entries
of the attached tag prediction, and the zero placeholders are meant to carry no gradient,
so the push/pull terms still train the tag head. The asserts show the tag head gets a
non-zero gradient from the AE loss alone and that the AE loss falls during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

K, H, W = 3, 8, 8          # joints, heatmap size


def zero_term():
    return torch.zeros(1).sum()


class AssociativeEmbeddingLoss(nn.Module):
    def single_image(self, tag_map, joints):
        person_tags, pull = [], 0
        for person in joints:
            picked = [tag_map[int(idx)] for idx, visible in person if visible > 0]
            if not picked:
                continue
            picked = torch.stack(picked)
            person_tags.append(picked.mean(dim=0))
            pull = pull + ((picked - person_tags[-1]) ** 2).mean()
        n = len(person_tags)
        if n == 0:
            return zero_term(), zero_term()
        if n == 1:
            return zero_term(), pull / n
        tags = torch.stack(person_tags)
        diff = tags.unsqueeze(0) - tags.unsqueeze(1)
        push = torch.exp(-diff.pow(2)).sum() - n
        return push / ((n - 1) * n) * 0.5, pull / n

    def forward(self, tag_maps, joints):
        joints = joints.cpu().data.numpy()
        pushes, pulls = [], []
        for i in range(tag_maps.shape[0]):
            push, pull = self.single_image(tag_maps[i], joints[i])
            pushes.append(push)
            pulls.append(pull)
        return torch.stack(pushes), torch.stack(pulls)


class BottomUpPoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.heatmap_head = nn.Conv2d(16, K, 1)
        self.tag_head = nn.Conv2d(16, K, 1)

    def forward(self, x):
        f = self.stem(x)
        return self.heatmap_head(f), self.tag_head(f)


def make_joints(batch, people=3):
    """joints[b, p, k] = (flat index into the K*H*W tag map, visibility)."""
    j = torch.zeros(batch, people, K, 2, dtype=torch.long)
    for b in range(batch):
        for p in range(people):
            for k in range(K):
                j[b, p, k, 0] = k * H * W + torch.randint(0, H * W, (1,)).item()
                j[b, p, k, 1] = 1
    j[-1, :, :, 1] = 0                     # last image has nobody annotated
    return j


images = torch.randn(4, 3, H, W)
gt_heatmaps = torch.rand(4, K, H, W)
joints = make_joints(4)
net, ae = BottomUpPoseNet(), AssociativeEmbeddingLoss()
opt = torch.optim.Adam(net.parameters(), lr=5e-3)

_, tags = net(images)
push, pull = ae(tags.reshape(4, -1, 1), joints)
(push.mean() + pull.mean()).backward()
assert net.tag_head.weight.grad is not None and net.tag_head.weight.grad.abs().sum() > 0
assert net.heatmap_head.weight.grad is None

ae_history = []
for _ in range(60):
    heatmaps, tags = net(images)
    push, pull = ae(tags.reshape(4, -1, 1), joints)
    loss = F.mse_loss(heatmaps, gt_heatmaps) + push.mean() + pull.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ae_history.append((push.mean() + pull.mean()).item())
assert ae_history[-1] < 0.5 * ae_history[0], ae_history
print("AE loss %.4f -> %.4f" % (ae_history[0], ae_history[-1]))
