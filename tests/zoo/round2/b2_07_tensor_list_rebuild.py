"""expect: GL002 15
dynamic: confirm
source: https://discuss.pytorch.org/t/gradient-is-lost-when-use-torch-tensor-t1-t2/23261

A small kinematics helper packs the cosines of two joint angles into a vector
with `torch.tensor([...])` so that it can be multiplied by a matrix. Building a
new tensor from a list of tensors copies their values and drops the autograd
history, so backward fails with "element 0 of tensors does not require grad".
The answer in the thread was to use `torch.stack` instead.
"""
import torch


def joint_features(a, b):
    return torch.tensor([torch.cos(a), torch.cos(b)])


def forward_kinematics(a, b, mat):
    return joint_features(a, b) @ mat


if __name__ == "__main__":
    a = torch.tensor(0.3, requires_grad=True)
    b = torch.tensor(1.1, requires_grad=True)
    mat = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = forward_kinematics(a, b, mat)
    try:
        y.sum().backward()
    except RuntimeError as err:
        assert "does not require grad" in str(err)
    else:
        raise AssertionError("backward unexpectedly succeeded")
    assert a.grad is None and b.grad is None
    print("ok: history lost in torch.tensor([...])")
