"""expect: none
source: https://discuss.pytorch.org/t/grad-is-none-autograd-through-list-of-variables-multigpu-transformer/26372

The Annotated Transformer's chunked loss (loss_compute.py) cuts each column
chunk of the decoder output off the graph and rebuilds it as a leaf that
requires grad, runs generator + criterion and backward per chunk, and finally
calls `out.backward(gradient=...)` with the collected chunk gradients. The
stop-gradient is deliberate: the thread's poster had grad None only because
of how he read the chunk gradients, and here the decoder gets exactly the
gradient of the unchunked loss.
"""
import torch
import torch.nn as nn

from loss_compute import ChunkedLossCompute


def build(seed):
    torch.manual_seed(seed)
    decoder = nn.Sequential(nn.Linear(5, 8), nn.Tanh())
    generator = nn.Linear(8, 7)
    return decoder, generator


if __name__ == "__main__":
    x = torch.randn(3, 6, 5)
    targets = torch.randint(0, 7, (3, 6))
    criterion = nn.CrossEntropyLoss(reduction="sum")
    norm = float(targets.numel())

    decoder, generator = build(0)
    ChunkedLossCompute(generator, criterion, chunk_size=2)(decoder(x), targets, norm)
    chunked = decoder[0].weight.grad.clone()

    ref_dec, ref_gen = build(0)
    logits = ref_gen(ref_dec(x))
    (criterion(logits.reshape(-1, 7), targets.reshape(-1)) / norm).backward()

    assert chunked.abs().sum() > 0
    assert torch.allclose(chunked, ref_dec[0].weight.grad, atol=1e-6)
    assert torch.allclose(generator.weight.grad, ref_gen.weight.grad, atol=1e-6)
    print("ok: chunked loss gives the same gradients as the full loss")
