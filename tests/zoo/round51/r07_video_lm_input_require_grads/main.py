"""
expect: none
dynamic: dismiss
source: https://github.com/yukw777/EILEV/issues/12

Instruction tuning of a video-language model: the language model (token embedding, LM layers, head) is frozen and
only the gated cross-attention adapters that read the video features are trained, with reentrant gradient
checkpointing on every layer. EILEV's train script calls model.enable_input_require_grads(), a forward hook that
does output.requires_grad_(True) on the frozen embedding's output; the maintainer explains in the issue that it
does not unfreeze the embeddings but lets gradients flow so the trainable parts are trained. It looks like
switching requires_grad on a value from a frozen module, but it is needed: reentrant checkpointing only records a
graph when one of the layer's tensor inputs requires grad. The asserts show that without the hook the loss has no
graph at all, and with it the adapters get gradients and the loss falls while the frozen embedding stays as it was.
"""
import warnings

import torch
import torch.nn.functional as F

from vlm import VideoLM

torch.manual_seed(0)
torch.set_num_threads(1)

tokens = torch.randint(0, 50, (4, 10))
media = torch.randn(4, 6, 12)            # features from a frozen video encoder


def lm_loss(model):
    logits = model(tokens[:, :-1], media)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))


model = VideoLM()
model.freeze_language_model()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    loss = lm_loss(model)
assert not loss.requires_grad and loss.grad_fn is None
print("without the hook: loss has no graph under reentrant checkpointing")

model.enable_input_require_grads()
emb_before = model.embed_tokens.weight.detach().clone()
trainable = [p for p in model.parameters() if p.requires_grad]
opt = torch.optim.Adam(trainable, lr=1e-2)
losses = []
for _ in range(40):
    loss = lm_loss(model)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
for layer in model.layers:
    assert layer.xq.weight.grad is not None and layer.xq.weight.grad.abs().sum() > 0
assert model.embed_tokens.weight.grad is None
assert torch.equal(model.embed_tokens.weight, emb_before)
assert losses[-1] < losses[0]
print("with the hook: adapter loss", round(losses[0], 4), "->", round(losses[-1], 4))
print("ok")
