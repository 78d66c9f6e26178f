import itertools

import torch
import torch.nn.functional as F


class ModelWorker:
    """Stand-in for a Ray actor holding a model replica.

    batch_logp returns plain Python floats, the way results come back
    from ray.get().
    """

    def __init__(self, model):
        self.model = model

    def batch_logp(self, contexts, targets):
        tokens = torch.cat([contexts, targets], dim=1)
        logits = self.model(tokens[:, :-1])
        logp = F.log_softmax(logits, -1).gather(-1, tokens[:, 1:, None]).squeeze(-1)
        return logp[:, contexts.shape[1] - 1:].sum(-1).tolist()


class WorkerGroup:
    def __init__(self, workers):
        self.workers = workers

    def run_batch(self, method, contexts, targets):
        chunks = zip(contexts.chunk(len(self.workers)), targets.chunk(len(self.workers)))
        futures = [getattr(w, method)(c, t) for w, (c, t) in zip(self.workers, chunks)]
        return list(itertools.chain.from_iterable(futures))
