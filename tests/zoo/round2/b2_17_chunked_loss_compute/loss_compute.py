import torch


class ChunkedLossCompute:
    """Compute the generator + criterion in column chunks to save memory.

    Each chunk of the decoder output is cut off and made a leaf so that the
    generator's graph can be freed chunk by chunk; the gradients collected on
    the leaves are then pushed back into the decoder output in one call.
    """

    def __init__(self, generator, criterion, chunk_size=2):
        self.generator = generator
        self.criterion = criterion
        self.chunk_size = chunk_size

    def __call__(self, out, targets, normalize):
        total = 0.0
        out_grads = []
        for i in range(0, out.size(1), self.chunk_size):
            piece = out[:, i:i + self.chunk_size].detach()
            piece.requires_grad_(True)
            logits = self.generator(piece)
            loss = self.criterion(logits.reshape(-1, logits.size(-1)),
                                  targets[:, i:i + self.chunk_size].reshape(-1)) / normalize
            total += loss.item()
            loss.backward()
            out_grads.append(piece.grad)
        out.backward(gradient=torch.cat(out_grads, dim=1))
        return total * normalize
