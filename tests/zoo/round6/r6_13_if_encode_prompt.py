"""expect: GL003 61
dynamic: confirm
source: https://github.com/huggingface/diffusers/pull/13688

Prompt-embedding optimisation (textual-inversion style) on top of a
DeepFloyd-IF-like diffusion pipeline. The pipeline's encode_prompt() helper
is decorated with @torch.no_grad(), so even a user-supplied prompt_embeds
tensor that requires grad comes back (after the per-image repeat) without any
history. The training script then calls requires_grad_(True) on the returned
embeddings to get past "element 0 of tensors does not require grad"; the loss
now backpropagates, but only into that new leaf, and the learned prompt
embedding never receives a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, vocab=30, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids):
        return self.proj(self.embed(ids))


class TinyUNet(nn.Module):
    def __init__(self, ch=3, dim=8):
        super().__init__()
        self.inp = nn.Conv2d(ch, dim, 3, padding=1)
        self.cond = nn.Linear(dim, dim)
        self.out = nn.Conv2d(dim, ch, 3, padding=1)

    def forward(self, x, t, encoder_hidden_states):
        h = self.inp(x) + self.cond(encoder_hidden_states.mean(1))[..., None, None] + t.view(-1, 1, 1, 1)
        return self.out(F.silu(h))


class TinyIFPipeline:
    def __init__(self, text_encoder, unet):
        self.text_encoder, self.unet = text_encoder, unet

    @torch.no_grad()
    def encode_prompt(self, prompt_ids=None, num_images_per_prompt=1, prompt_embeds=None):
        if prompt_embeds is None:
            prompt_embeds = self.text_encoder(prompt_ids)
        prompt_embeds = prompt_embeds.repeat_interleave(num_images_per_prompt, dim=0)
        negative_prompt_embeds = torch.zeros_like(prompt_embeds)
        return prompt_embeds, negative_prompt_embeds


def optimise_prompt(pipe, learned_embeds, images, steps=3, lr=1e-2):
    optimizer = torch.optim.Adam([learned_embeds], lr=lr)
    for _ in range(steps):
        noise = torch.randn_like(images)
        t = torch.rand(images.shape[0])
        noisy = (1 - t.view(-1, 1, 1, 1)) * images + t.view(-1, 1, 1, 1) * noise
        prompt_embeds, _ = pipe.encode_prompt(num_images_per_prompt=images.shape[0], prompt_embeds=learned_embeds)
        prompt_embeds.requires_grad_(True)
        loss = F.mse_loss(pipe.unet(noisy, t, prompt_embeds), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    text_encoder, unet = TextEncoder(), TinyUNet()
    for p in list(text_encoder.parameters()) + list(unet.parameters()):
        p.requires_grad_(False)
    pipe = TinyIFPipeline(text_encoder, unet)
    with torch.no_grad():
        init = text_encoder(torch.randint(0, 30, (1, 5)))
    learned_embeds = nn.Parameter(init.clone())
    before = learned_embeds.detach().clone()
    optimise_prompt(pipe, learned_embeds, torch.rand(4, 3, 8, 8))
    assert learned_embeds.grad is None
    assert torch.equal(before, learned_embeds.detach())
    print("OK: loss backpropagates, but the learned prompt embedding never gets a gradient")
