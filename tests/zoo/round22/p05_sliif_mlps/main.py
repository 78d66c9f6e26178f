"""
expect: GL002 models.py:27
dynamic: confirm
source: https://github.com/LianpoWang/SLIIF/issues/14

An issue on an implicit-function super-resolution model reported that RESMLPS.forward
collected each MLP's output with `.cpu().detach().numpy()` and rebuilt the stack with
`torch.tensor(res_list)`, which breaks autograd so the model cannot train. In this
reproduction the rebuilt stack is then blended with learnable weights, so the loss
still has a grad_fn and training runs. The asserts show the encoder and every MLP get
no gradient and keep their weights, only the blend weights move, and a torch.stack
version trains everything.
"""
import torch
from models import ImplicitSR, ResMLPs

torch.set_num_threads(1)


class StackedResMLPs(ResMLPs):
    def forward(self, feat, coord):
        mlp_res = torch.stack([mlp(feat, coord) for mlp in self.mlps])
        w = torch.softmax(self.blend, dim=0).view(-1, 1, 1)
        return (w * mlp_res).sum(0)


def run(model, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    mlp0 = [p.detach().clone() for p in model.decoder.mlps.parameters()]
    blend0 = model.decoder.blend.detach().clone()
    for _ in range(steps):
        lr_img = torch.rand(2, 3, 6, 6)
        coord = torch.rand(2, 6, 6, 2) * 2 - 1
        target = torch.rand(2 * 36, 3)
        loss = torch.nn.functional.l1_loss(model(lr_img, coord), target)
        opt.zero_grad()
        loss.backward()
        enc_grad = model.encoder[0].weight.grad
        mlp_grads = [p.grad for p in model.decoder.mlps.parameters()]
        opt.step()
    mlp_moved = any(not torch.equal(a, b) for a, b in zip(mlp0, model.decoder.mlps.parameters()))
    return enc_grad, mlp_grads, mlp_moved, not torch.equal(blend0, model.decoder.blend)


torch.manual_seed(0)
enc_grad, mlp_grads, mlp_moved, blend_moved = run(ImplicitSR())
assert enc_grad is None and all(g is None for g in mlp_grads)
assert not mlp_moved and blend_moved

torch.manual_seed(0)
fixed = ImplicitSR()
fixed.decoder = StackedResMLPs(8)
enc_grad, mlp_grads, mlp_moved, blend_moved = run(fixed)
assert enc_grad is not None and all(g is not None for g in mlp_grads)
assert mlp_moved and blend_moved
print("p05 ok: NumPy round trip in the MLP ensemble leaves only the blend weights training")
