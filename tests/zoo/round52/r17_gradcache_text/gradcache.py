"""Gradient cache for large-batch contrastive training: representation gradients first, then chunked re-encoding."""
import torch


class GradCache:
    def __init__(self, q_encoder, p_encoder, loss_fn, chunk_size):
        self.q_encoder = q_encoder
        self.p_encoder = p_encoder
        self.loss_fn = loss_fn
        self.chunk_size = chunk_size

    def encode_no_grad(self, encoder, batch):
        with torch.no_grad():
            return torch.cat([encoder(c) for c in batch.split(self.chunk_size)])

    def build_cache(self, q_reps, p_reps):
        q_leaf = q_reps.detach().requires_grad_()
        p_leaf = p_reps.detach().requires_grad_()
        loss = self.loss_fn(q_leaf, p_leaf)
        loss.backward()
        return q_leaf.grad, p_leaf.grad, loss.detach()

    def forward_backward(self, encoder, batch, cached_grads):
        for chunk, grad in zip(batch.split(self.chunk_size), cached_grads.split(self.chunk_size)):
            reps = encoder(chunk)
            surrogate = torch.dot(reps.flatten(), grad.flatten())
            surrogate.backward()

    def __call__(self, queries, passages):
        q_reps = self.encode_no_grad(self.q_encoder, queries)
        p_reps = self.encode_no_grad(self.p_encoder, passages)
        q_grads, p_grads, loss = self.build_cache(q_reps, p_reps)
        self.forward_backward(self.q_encoder, queries, q_grads)
        self.forward_backward(self.p_encoder, passages, p_grads)
        return loss
