"""expect: GL003 34
dynamic: confirm
source: https://github.com/Lightning-AI/pytorch-lightning/issues/13948

A Lightning callback fits a small linear probe on the model's features at the start of
each validation batch, decorating the helper with @torch.enable_grad() and calling
feats.requires_grad_().  The features were produced inside the trainer's evaluation
context (inference mode), so the probe's logits still do not require grad and the probe
can never be trained ("Unable to enable grad during validation").
"""
import numpy as np
import torch
import torch.nn as nn


class BoringModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(32, 2)

    def forward(self, x):
        return self.layer(x)


class LinearProbeCallback:
    def __init__(self, out_ch=2):
        self.saved_batch = np.random.RandomState(0).rand(32).astype(np.float32)
        self.out_ch = out_ch
        self.probe = None
        self.probe_logits = None

    @torch.enable_grad()
    def _init_and_train_layer(self, feats):
        feats.requires_grad_()
        layer = nn.Linear(feats.shape[-1], self.out_ch)
        logits = layer(feats[None])
        self.probe, self.probe_logits = layer, logits
        if logits.requires_grad:
            optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
            loss = logits.logsumexp(-1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    def _pred_feats(self, module):
        saved_batch = torch.tensor(self.saved_batch)
        return module(saved_batch[None])[0]

    def on_validation_batch_start(self, module, batch, batch_idx):
        self._init_and_train_layer(self._pred_feats(module))


class EvaluationLoop:
    def __init__(self, callbacks):
        self.callbacks = callbacks

    def run(self, module, dataloader):
        module.eval()
        outputs = []
        with torch.inference_mode():
            for batch_idx, batch in enumerate(dataloader):
                for cb in self.callbacks:
                    cb.on_validation_batch_start(module, batch, batch_idx)
                outputs.append(module(batch).sum())
        return outputs


if __name__ == "__main__":
    torch.manual_seed(0)
    probe_cb = LinearProbeCallback()
    loop = EvaluationLoop([probe_cb])
    loop.run(BoringModel(), [torch.randn(2, 32) for _ in range(2)])
    assert not probe_cb.probe_logits.requires_grad
    assert probe_cb.probe.weight.grad is None
    print("probe never trained: logits have no grad_fn under the evaluation context")
