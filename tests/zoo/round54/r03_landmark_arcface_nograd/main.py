"""
expect: GL001 retrieval_net.py:42, GL003 main.py:40
dynamic: confirm
source: https://github.com/MCC-WH/Token/issues/12

Landmark-retrieval training (ArcFace on a refined global descriptor). The model's
training forward, which returns (loss, logits), carries a @torch.no_grad() decorator,
so the whole loss is computed outside the autograd record. The first backward then
fails with "element 0 of tensors does not require grad"; the reporter "fixed" it by
setting loss.requires_grad = True, after which backward runs but the loss does not
drop. The asserts show that after the switch no parameter ever receives a gradient,
the weights do not move and the loss stays flat, while the same loop run through the
undecorated computation trains and lowers the loss.
"""
import torch

from retrieval_net import TokenRetrievalNet

torch.manual_seed(0)
torch.set_num_threads(1)

images = torch.randn(32, 3, 8, 8)
labels = torch.randint(0, 10, (32,))


def make_optimizer(model):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if name.endswith("bias") else decay).append(p)
    return torch.optim.SGD([{"params": decay, "weight_decay": 1e-4},
                            {"params": no_decay, "weight_decay": 0.0}], lr=0.05, momentum=0.9)


def train(model, step_fn, iters=40):
    opt = make_optimizer(model)
    losses = []
    for _ in range(iters):
        loss, _ = step_fn(images, labels)
        if not loss.requires_grad:
            loss.requires_grad = True
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    return losses


model = TokenRetrievalNet()
start = [p.detach().clone() for p in model.parameters()]
model.zero_grad()
loss, _ = model(images, labels)
assert loss.grad_fn is None and not loss.requires_grad
losses = train(model, model)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, b) for a, b in zip(start, model.parameters())), "weights moved"
assert max(losses) - min(losses) < 1e-6, losses

ref = TokenRetrievalNet()
ref.load_state_dict({k: v for k, v in zip(ref.state_dict(), start)})
ref_losses = train(ref, ref._loss_and_logits)
assert ref_losses[-1] < 0.7 * ref_losses[0], ref_losses
print("loss with requires_grad switch: %.3f -> %.3f | intended: %.3f -> %.3f"
      % (losses[0], losses[-1], ref_losses[0], ref_losses[-1]))
