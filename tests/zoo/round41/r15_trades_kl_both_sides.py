"""
expect: none
dynamic: dismiss
source: https://github.com/yaodongyu/TRADES/issues/12

TRADES adversarial training, rebuilt at toy scale. The inner loop crafts x_adv: it starts from
x_natural.detach() plus noise, switches x_adv.requires_grad_() on at each step, takes
torch.autograd.grad of the KL between the predictions on x_adv and on x_natural with respect to
x_adv, and re-detaches the stepped point; the final point is wrapped with
Variable(..., requires_grad=False). All of these cuts are deliberate: the perturbation is data,
not a trainable quantity. The outer loss is cross-entropy on the clean batch plus beta times
the KL between model(x_adv) and model(x_natural) with neither side detached, which is the
point discussed in the issue (the gradient flows through both arguments). The asserts check that
x_adv carries no history, that the robust term alone gives the parameters a non-zero gradient
through both of its arguments, and that training lowers the combined loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion_kl = nn.KLDivLoss(reduction="sum")
X = torch.rand(256, 20)
Y = (X[:, :4].argmax(dim=1))


def trades_adv(model, x_natural, step_size=0.01, epsilon=0.05, perturb_steps=5):
    model.eval()
    x_adv = x_natural.detach() + 0.001 * torch.randn(x_natural.shape).detach()
    for _ in range(perturb_steps):
        x_adv.requires_grad_()
        with torch.enable_grad():
            loss_kl = criterion_kl(F.log_softmax(model(x_adv), dim=1),
                                   F.softmax(model(x_natural), dim=1))
        grad = torch.autograd.grad(loss_kl, [x_adv])[0]
        x_adv = x_adv.detach() + step_size * torch.sign(grad.detach())
        x_adv = torch.min(torch.max(x_adv, x_natural - epsilon), x_natural + epsilon)
        x_adv = torch.clamp(x_adv, 0.0, 1.0)
    model.train()
    return Variable(torch.clamp(x_adv, 0.0, 1.0), requires_grad=False)


def trades_loss(model, x_natural, y, beta=6.0):
    x_adv = trades_adv(model, x_natural)
    logits = model(x_natural)
    loss_natural = F.cross_entropy(logits, y)
    loss_robust = (1.0 / len(x_natural)) * criterion_kl(F.log_softmax(model(x_adv), dim=1),
                                                        F.softmax(model(x_natural), dim=1))
    return loss_natural, loss_robust, x_adv


loss_nat, loss_rob, x_adv = trades_loss(model, X[:64], Y[:64])
assert x_adv.grad_fn is None and not x_adv.requires_grad
w = model[0].weight
g_rob = torch.autograd.grad(loss_rob, w, retain_graph=True)[0]
assert g_rob.abs().sum() > 0

# Both KL arguments carry gradient: freezing either side changes the robust gradient.
adv_side = F.log_softmax(model(x_adv), dim=1)
nat_side = F.softmax(model(X[:64]), dim=1)
g_adv_only = torch.autograd.grad(criterion_kl(adv_side, nat_side.detach()) / 64, w)[0]
assert not torch.allclose(g_adv_only, g_rob)

history = []
for epoch in range(15):
    for i in range(0, 256, 64):
        optimizer.zero_grad()
        nat, rob, _ = trades_loss(model, X[i:i + 64], Y[i:i + 64])
        (nat + 6.0 * rob).backward()
        optimizer.step()
    with torch.no_grad():
        history.append(F.cross_entropy(model(X), Y).item())
assert history[-1] < history[0]
print(f"clean CE {history[0]:.3f} -> {history[-1]:.3f} with TRADES regulariser")
