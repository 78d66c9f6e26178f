"""
expect: GL001 densecl_model.py:66
dynamic: confirm
source: none, invented

Dense contrastive pretraining (DenseCL style) with a momentum key encoder and two queues, one of
global keys and one of pooled dense keys. The key backbone and heads are EMA copies run under
torch.no_grad(), and the dense correspondences are found with an argmax over backbone-feature
similarities inside the same no_grad block; all of that is intended. But with the default
dense_norm="with_keys", the L2 normalisation of the query's dense projection was moved into that
block too, so q_dense is rebuilt without a graph and the dense query head (dense_q), whose only
way to the loss is that tensor, never receives a gradient; the backbone still trains through the
global branch. The asserts show dense_q's gradients stay None and its weights are unchanged after
several steps, while dense_norm="query_side" (normalising before the block) trains dense_q.
"""
import torch

from densecl_model import DenseCL


def crops(images):
    out = []
    for _ in range(2):
        shift = torch.randint(-2, 3, (2,)).tolist()
        v = torch.roll(images, shifts=shift, dims=(2, 3))
        v = v * (0.7 + 0.6 * torch.rand(images.shape[0], 3, 1, 1))
        out.append(v + 0.03 * torch.randn_like(v))
    return out


def pretrain(dense_norm, steps=5):
    torch.manual_seed(0)
    model = DenseCL(dense_norm=dense_norm)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad],
                          lr=0.03, momentum=0.9, weight_decay=1e-4)
    head_w0 = [p.detach().clone() for p in model.dense_q.parameters()]
    bb_w0 = model.backbone_q[0].weight.detach().clone()
    images = torch.rand(24, 3, 16, 16)
    for _ in range(steps):
        im_q, im_k = crops(images)
        loss = model(im_q, im_k)
        opt.zero_grad()
        loss.backward()
        opt.step()
    head_moved = any(not torch.equal(a, b) for a, b in zip(head_w0, model.dense_q.parameters()))
    bb_moved = not torch.equal(bb_w0, model.backbone_q[0].weight)
    return model, head_moved, bb_moved, loss.item()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model, head_moved, bb_moved, _ = pretrain("with_keys")
    assert all(p.grad is None for p in model.dense_q.parameters())
    assert not head_moved and bb_moved

    model, head_moved, bb_moved, loss = pretrain("query_side")
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.dense_q.parameters())
    assert head_moved and bb_moved
    print("densecl pretrain: ok, last loss %.3f" % loss)


if __name__ == "__main__":
    main()
