"""
expect: GL002 54
dynamic: confirm
source: https://github.com/R1704/FlowCoder/blob/7851d5a299d895ca1b54ecc94a62dd091d1ec818/src/sequential/model.py

A GFlowNet that writes programs token by token: the decoder samples the next
token, and records the log-probability of the sampled token with
log_probs_tensor[0, idx].item() in a Python list; at the end of the trajectory
it returns torch.tensor(log_probs).sum(). Training uses the trajectory-balance
loss (logZ + sum log P_F - log R)^2. Because the per-step log-probabilities
went through Python floats and were rebuilt as a new tensor, the trajectory
log-probability has no history: the only thing the loss can move is the
learned constant logZ, while the embedding, the recurrent decoder and the
output layer never receive a gradient, so the sampler never learns to prefer
high-reward programs. The asserts train a tiny version for a few batches:
logZ gets a gradient and moves, every decoder parameter has .grad None and is
unchanged. The fixed sampler keeps the log-probability tensors and sums them
with torch.stack, and the decoder trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB = ["<START>", "<STOP>", "x", "y", "+", "1"]
START, STOP = 0, 1
MAX_TRAJECTORY = 6


class GFlowNetSampler(nn.Module):
    def __init__(self, d_model=16):
        super().__init__()
        self.embeddings = nn.Embedding(len(VOCAB), d_model)
        self.decoder = nn.GRU(d_model, d_model, batch_first=True)
        self.output_layer = nn.Linear(d_model, len(VOCAB))
        self.logZ = nn.Parameter(torch.ones(1))

    def step_log_probs(self, target):
        out, _ = self.decoder(self.embeddings(target))
        return torch.log_softmax(self.output_layer(out[:, -1]), dim=-1)

    def forward(self):
        target = torch.full((1, 1), START, dtype=torch.long)
        output_tokens, log_probs = [], []
        for _ in range(MAX_TRAJECTORY):
            log_probs_tensor = self.step_log_probs(target)
            next_token_idx = torch.multinomial(log_probs_tensor.exp(), num_samples=1).item()
            log_prob = log_probs_tensor[0, next_token_idx].item()
            if next_token_idx == STOP:
                break
            output_tokens.append(next_token_idx)
            log_probs.append(log_prob)
            target = torch.cat([target, torch.tensor([[next_token_idx]])], dim=1)
        return output_tokens, torch.tensor(log_probs).sum()

    def forward_fixed(self):
        target = torch.full((1, 1), START, dtype=torch.long)
        output_tokens, log_probs = [], []
        for _ in range(MAX_TRAJECTORY):
            log_probs_tensor = self.step_log_probs(target)
            next_token_idx = torch.multinomial(log_probs_tensor.exp(), num_samples=1).item()
            log_probs.append(log_probs_tensor[0, next_token_idx])
            if next_token_idx == STOP:
                break
            output_tokens.append(next_token_idx)
            target = torch.cat([target, torch.tensor([[next_token_idx]])], dim=1)
        return output_tokens, torch.stack(log_probs).sum()


def reward(tokens):
    # prefer programs that alternate a variable and "+"
    good = sum(1 for i, t in enumerate(tokens) if VOCAB[t] == ("x" if i % 2 == 0 else "+"))
    return torch.tensor(0.1 + good, dtype=torch.float)


def train(model, sample, batches=4, batch_size=8):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(batches):
        log_probs = torch.zeros(batch_size)
        rewards = torch.zeros(batch_size)
        for i in range(batch_size):
            tokens, log_prob = sample()
            log_probs[i] = log_prob
            rewards[i] = reward(tokens)
        loss = (model.logZ + log_probs - torch.log(rewards)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


model = GFlowNetSampler()
decoder_params = [p for n, p in model.named_parameters() if n != "logZ"]
before = [p.detach().clone() for p in decoder_params]
train(model, model.forward)
assert model.logZ.grad is not None and not torch.equal(model.logZ.detach(), torch.ones(1))
assert all(p.grad is None for p in decoder_params)
assert all(torch.equal(b, p) for b, p in zip(before, decoder_params))

torch.manual_seed(0)
fixed = GFlowNetSampler()
fixed_params = [p for n, p in fixed.named_parameters() if n != "logZ"]
before = [p.detach().clone() for p in fixed_params]
train(fixed, fixed.forward_fixed)
assert all(p.grad is not None for p in fixed_params)
assert any(not torch.equal(b, p) for b, p in zip(before, fixed_params))
print("r05 ok: .item() log-probs rebuilt with torch.tensor only train logZ; stacked tensors train the decoder")
