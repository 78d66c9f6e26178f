"""
expect: GL005 prompt_clip.py:35, GL005 prompt_clip.py:37
dynamic: confirm
source: https://github.com/caoyunkang/AdaCLIP/pull/46

Prompt tuning for zero-shot anomaly detection: a frozen CLIP-like text tower gets learnable prompt tokens, each
state ("normal"/"anomalous") is encoded with several templates, and the embeddings are L2-normalised in place
(class_embeddings /= class_embeddings.norm(...), then the mean again with /=), the way CLIP's zero-shot code does
it under torch.no_grad(). With learnable prompts the embeddings carry a graph, and the norm saved the very tensor
that the in-place division then overwrites, so training stops with "one of the variables needed for gradient
computation has been modified by an inplace operation" - the error the AdaCLIP pull request fixed by making the
operations out-of-place. The asserts catch that RuntimeError in the prompt encoder and show that the out-of-place
version gives the prompt tokens a gradient and lowers the loss.
"""
import torch
import torch.nn.functional as F

from prompt_clip import FrozenTextTower, PromptedTextEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

templates = {
    "normal": torch.randint(0, 30, (4, 5)),
    "anomalous": torch.randint(0, 30, (4, 5)),
}
image_feats = F.normalize(torch.randn(16, 12), dim=-1)     # from a frozen image tower
labels = torch.randint(0, 2, (16,))


def step(encoder, opt, encode):
    text = torch.stack([encode(templates[s]) for s in ("normal", "anomalous")])   # [2, D]
    logits = 20.0 * image_feats @ text.t()
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


tower = FrozenTextTower()
encoder = PromptedTextEncoder(tower)
opt = torch.optim.Adam([encoder.prompt], lr=5e-2)
try:
    step(encoder, opt, encoder.encode_text)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised
print("in-place normalisation: backward raised the in-place RuntimeError")

encoder2 = PromptedTextEncoder(FrozenTextTower())
encoder2.load_state_dict(encoder.state_dict())
opt2 = torch.optim.Adam([encoder2.prompt], lr=5e-2)
losses = [step(encoder2, opt2, encoder2.encode_text_out_of_place) for _ in range(40)]
assert encoder2.prompt.grad is not None and encoder2.prompt.grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("out-of-place normalisation: loss", round(losses[0], 4), "->", round(losses[-1], 4))
print("ok")
