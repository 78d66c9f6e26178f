"""
expect: GL005 50
dynamic: confirm
source: https://www.kingtom.site/2022/07/15/pytorch%20loss/

A content/style disentangling network has three losses and three optimizers: the style-classification loss
updates content block 2 and the style head, an adversarial loss updates only content block 1, and the content
classification loss updates both content blocks and the content head. The step runs loss, backward
(retain_graph=True), optimizer.step() for each loss in turn over ONE forward graph. The style optimizer's step()
rewrites block 2 and the style head in place, but the adversarial and content backward passes still need the
old weights saved in that graph, so backward raises "modified by an inplace operation" (the page's report).
The asserts catch that RuntimeError, then show the repair the page gives (all backward calls first with
`inputs=` selecting each loss's parameters, then the three steps) running and updating every group.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Disentangler(nn.Module):
    def __init__(self, d_in=10, d=16, n_content=3, n_style=4):
        super().__init__()
        self.block1 = nn.Linear(d_in, d)
        self.block2 = nn.Linear(d, d)
        self.content_head = nn.Linear(d, n_content)
        self.style_head = nn.Linear(d, n_style)

    def forward(self, x):
        h1 = torch.relu(self.block1(x))
        h2 = torch.relu(self.block2(h1))
        return self.content_head(h2), self.style_head(h2)


def losses_for(net, x, y_content, y_style):
    content_logits, style_logits = net(x)
    loss_content = F.cross_entropy(content_logits, y_content)
    loss_style = F.cross_entropy(style_logits, y_style)
    loss_adv = -F.cross_entropy(style_logits, y_style)  # block 1 learns to hide the style
    return loss_content, loss_style, loss_adv


def sequential_step(net, opts, x, yc, ys):
    opt_content, opt_style, opt_adv = opts
    loss_content, loss_style, loss_adv = losses_for(net, x, yc, ys)
    opt_style.zero_grad()
    loss_style.backward(retain_graph=True)
    opt_style.step()
    opt_adv.zero_grad()
    loss_adv.backward(retain_graph=True)
    opt_adv.step()
    opt_content.zero_grad()
    loss_content.backward()
    opt_content.step()


def make_optimizers(net):
    opt_content = torch.optim.SGD(
        list(net.block1.parameters()) + list(net.block2.parameters()) + list(net.content_head.parameters()), lr=0.1)
    opt_style = torch.optim.SGD(list(net.block2.parameters()) + list(net.style_head.parameters()), lr=0.1)
    opt_adv = torch.optim.SGD(net.block1.parameters(), lr=0.1)
    return opt_content, opt_style, opt_adv


x = torch.randn(16, 10)
y_content = torch.randint(0, 3, (16,))
y_style = torch.randint(0, 4, (16,))

net = Disentangler()
opts = make_optimizers(net)
try:
    sequential_step(net, opts, x, y_content, y_style)
    raise AssertionError("expected the in-place optimizer update to break the next backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

net = Disentangler()
opt_content, opt_style, opt_adv = make_optimizers(net)
before = {k: v.detach().clone() for k, v in net.state_dict().items()}
for opt in (opt_content, opt_style, opt_adv):
    opt.zero_grad()
loss_content, loss_style, loss_adv = losses_for(net, x, y_content, y_style)
style_params = list(net.block2.parameters()) + list(net.style_head.parameters())
content_params = [p for g in opt_content.param_groups for p in g["params"]]
loss_style.backward(retain_graph=True, inputs=style_params)
loss_adv.backward(retain_graph=True, inputs=list(net.block1.parameters()))
loss_content.backward(inputs=content_params)
for opt in (opt_style, opt_adv, opt_content):
    opt.step()
moved = [k for k, v in net.state_dict().items() if not torch.equal(v, before[k])]
assert sorted(moved) == sorted(before.keys()), moved
print("sequential steps fail with an in-place error; backward-with-inputs then step updates", len(moved), "tensors")
