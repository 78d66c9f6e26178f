"""
expect: GL005 train_step.py:15
dynamic: confirm
source: none, invented

Robotics grasp learning. The script builds a tactile encoder and two heads (nets.py) and one SGD
optimizer over all of them, then calls `grasp_train_step` (train_step.py). The step runs the encoder
through the helper `encode_contact`, backpropagates the grasp-quality loss with retain_graph=True, calls
optimizer.step(), and then backpropagates the slip loss through the same encoder forward. The step
updates the encoder weights in place, and fc2's weight was saved by the retained graph, so the second
backward raises "modified by an inplace operation". The asserts catch that error and show that the fixed
step (sum both losses, one backward, one step) runs and lowers both losses.
"""
import torch

from nets import TactileEncoder, GraspQualityHead, SlipHead
from train_step import grasp_train_step, grasp_train_step_joint


def synthetic_grasps(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    taxels = torch.rand(n, 24, generator=g)
    joints = torch.randn(n, 4, generator=g)
    pressure = taxels[:, :12].mean(-1) - taxels[:, 12:].mean(-1)
    success = (pressure + 0.3 * joints[:, 0] > 0).float()
    slipped = (joints[:, 1] - pressure > 0.2).float()
    return {"taxels": taxels, "joints": joints, "success": success, "slipped": slipped}


def build():
    torch.manual_seed(0)
    enc, qh, sh = TactileEncoder(), GraspQualityHead(), SlipHead()
    params = list(enc.parameters()) + list(qh.parameters()) + list(sh.parameters())
    opt = torch.optim.SGD(params, lr=0.5)
    return enc, qh, sh, opt


def main():
    batch = synthetic_grasps()

    enc, qh, sh, opt = build()
    try:
        grasp_train_step(enc, qh, sh, opt, batch)
        raised = None
    except RuntimeError as e:
        raised = str(e)
    assert raised is not None and "inplace operation" in raised, raised
    print("two-step update raised:", raised.splitlines()[0][:90])

    enc, qh, sh, opt = build()
    first = grasp_train_step_joint(enc, qh, sh, opt, batch)
    for _ in range(150):
        last = grasp_train_step_joint(enc, qh, sh, opt, batch)
    assert last[0] < first[0] and last[1] < first[1], (first, last)
    print(f"joint step trains: quality {first[0]:.3f}->{last[0]:.3f}, slip {first[1]:.3f}->{last[1]:.3f}")


if __name__ == "__main__":
    main()
