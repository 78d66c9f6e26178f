"""
expect: GL003 main.py:46
dynamic: confirm
source: https://github.com/lancopku/label-words-are-anchors/issues/28

Saliency analysis of in-context learning: the language model is frozen and an AttentionerManager patches an
adapter into each layer's eager `_attn`; the adapter multiplies the attention weights by a ones tensor that
requires grad, and after backward its gradient is the saliency map. The model here, like a newer
transformers release, runs a fused attention kernel by default, so the patched `_attn` is never called.
Nothing in the forward pass requires grad, `loss.backward()` fails with "element 0 of tensors does not
require grad", and the reporter silenced that by setting `loss.requires_grad = True` on the frozen model's
loss. backward() then runs, but it reaches no adapter: the adapter parameters are never created and
`grad()` fails with "'NoneType' object has no attribute 'grad'", which is the follow-up error in the report.
The asserts show the original error, the adapters left empty after the switch, and real non-zero saliency
gradients when the eager path is selected so that the adapters sit in the graph.
"""
import torch
import torch.nn.functional as F

from attentioner import AttentionerManager
from tiny_lm import TinyLM

torch.manual_seed(0)
torch.set_num_threads(1)


def build(attn_implementation):
    torch.manual_seed(0)
    model = TinyLM(attn_implementation=attn_implementation)
    model.requires_grad_(False)
    model.eval()
    return model, AttentionerManager(model)


demo_ids = torch.randint(0, 40, (1, 10))
label = torch.tensor([7])

model, manager = build("sdpa")
loss = F.cross_entropy(model(demo_ids)[:, -1], label)
try:
    loss.backward()
    raise AssertionError("backward should have failed on the frozen model's loss")
except RuntimeError as err:
    assert "does not require grad" in str(err)

loss.requires_grad = True
loss.backward()
assert all(adapter.params is None for adapter in manager.attention_adapters)
try:
    manager.grad()
    raise AssertionError("saliency should not be available")
except AttributeError as err:
    assert "'NoneType' object has no attribute 'grad'" in str(err)

eager_model, eager_manager = build("eager")
eager_loss = F.cross_entropy(eager_model(demo_ids)[:, -1], label)
assert eager_loss.grad_fn is not None
eager_loss.backward()
saliency = eager_manager.grad()
assert all(s is not None and s.sum() > 0 for s in saliency)
print("saliency per layer:", [round(s.sum().item(), 4) for s in saliency])
