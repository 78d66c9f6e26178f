"""
expect: GL001 model.py:22
dynamic: confirm
source: none, invented

Robotics / grasp planning. GraspScorer rates a candidate grasp from a depth patch and
the gripper pose. Its depth encoder is a freshly built, trainable MLP, but the method
that runs it, `encode_depth`, is decorated `@torch.no_grad()` (someone wanted the
normalisation not to be recorded and put the decorator on the whole method). The
training loss, `compute_loss`, feeds that output to the head, and the Trainer in
trainer.py backpropagates and steps Adam over all of model.parameters(): the depth
encoder never receives a gradient and stays at its random initialisation, so the
scorer only learns from the pose. The asserts show the depth encoder's grads are None
and its weights unchanged after training while the pose encoder moved, and that a
fixed scorer (normalisation without the decorator) trains its depth encoder and fits
a depth-dependent label better.
"""
import copy

import torch
import torch.nn.functional as F

from model import GraspScorer
from trainer import Trainer


class FixedGraspScorer(GraspScorer):
    def encode_depth(self, depth_patch):
        centred = depth_patch - depth_patch.mean(dim=1, keepdim=True)
        scaled = centred / (depth_patch.std(dim=1, keepdim=True) + 1e-6)
        return self.depth_encoder(scaled)


def make_batches(n_batches=20, batch=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    direction = torch.randn(64, generator=g)
    batches = []
    for _ in range(n_batches):
        depth = torch.randn(batch, 64, generator=g)
        pose = torch.randn(batch, 6, generator=g)
        success = ((depth - depth.mean(1, keepdim=True)) @ direction > 0).float()
        batches.append({"depth": depth, "pose": pose, "success": success})
    return batches


def final_loss(model, batches):
    return sum(model.compute_loss(b).item() for b in batches) / len(batches)


def main():
    torch.manual_seed(0)
    batches = make_batches()

    model = GraspScorer()
    depth_before = copy.deepcopy(model.depth_encoder.state_dict())
    pose_before = model.pose_encoder.weight.detach().clone()
    trainer = Trainer(model)
    trainer.fit(batches, epochs=5)

    # buggy path: the depth encoder never gets a gradient
    assert all(p.grad is None for p in model.depth_encoder.parameters())
    for k, v in model.depth_encoder.state_dict().items():
        assert torch.equal(v, depth_before[k]), k
    assert not torch.equal(model.pose_encoder.weight.detach(), pose_before)
    buggy_loss = final_loss(model, batches)

    # fixed variant: same init, depth encoder trains
    torch.manual_seed(0)
    fixed = FixedGraspScorer()
    Trainer(fixed).fit(batches, epochs=5)
    assert all(p.grad is not None for p in fixed.depth_encoder.parameters())
    assert not torch.equal(fixed.depth_encoder[0].weight.detach(), depth_before["0.weight"])
    fixed_loss = final_loss(fixed, batches)
    print(f"buggy loss {buggy_loss:.3f}  fixed loss {fixed_loss:.3f}")
    assert fixed_loss < buggy_loss - 0.05
    print("OK")


if __name__ == "__main__":
    main()
