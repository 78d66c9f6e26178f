"""
expect: GL002 79
dynamic: confirm
source: https://github.com/NeuralBlitz/fishstick/blob/bac6a2f9ecd6a710c13141e04304d4251c7c83aa/fishstick/bio/molecules.py

A reinforcement-learning molecule optimizer: a small recurrent token generator samples
SMILES-like strings, a scoring function rewards each string, and REINFORCE is supposed to
raise the likelihood of high-scoring molecules. Sampling runs under torch.no_grad(), and the
per-molecule log-likelihood is accumulated as a Python float with .item(). The update then
rebuilds those floats with torch.tensor(log_probs, requires_grad=True): the loss is built
on a brand-new leaf that has no connection to the generator, so backward() fills only that
leaf's gradient, gradient clipping sees no gradients, and Adam leaves the generator as it
was. The asserts show the generator parameters unchanged and gradient-free after the
optimization steps, and that re-scoring the sampled tokens with gradients enabled gives the
generator a gradient and moves it.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)

VOCAB = 12


class TokenGenerator(nn.Module):
    def __init__(self, vocab=VOCAB, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, 16)
        self.rnn = nn.GRU(16, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, hidden=None):
        h, hidden = self.rnn(self.embed(tokens), hidden)
        return self.out(h), hidden


class CarbonScore:
    def score(self, smiles):
        return smiles.count("C") / max(len(smiles), 1)


class ReinforcementLearning:
    def __init__(self, generator, scoring_function, learning_rate=1e-2):
        self.generator = generator
        self.scoring_function = scoring_function
        self.optimizer = torch.optim.Adam(generator.parameters(), lr=learning_rate)

    def generate_episode(self, batch_size=16, max_length=12):
        self.generator.eval()
        molecules, log_probs, rewards, token_lists = [], [], [], []
        with torch.no_grad():
            for _ in range(batch_size):
                tokens = [0]
                log_prob_sum = 0.0
                for _ in range(max_length):
                    logits, _ = self.generator(torch.tensor([tokens[-1]]).unsqueeze(0))
                    dist = torch.distributions.Categorical(F.softmax(logits[:, -1, :], dim=-1))
                    action = dist.sample()
                    log_prob_sum += dist.log_prob(action).item()
                    tokens.append(action.item())
                    if action.item() == 0:
                        break
                smiles = "".join(chr(65 + t % 26) for t in tokens)
                molecules.append(smiles)
                log_probs.append(log_prob_sum)
                rewards.append(self.scoring_function.score(smiles))
                token_lists.append(tokens)
        return molecules, log_probs, rewards, token_lists

    def optimize(self, num_steps=5):
        for _ in range(num_steps):
            molecules, log_probs, rewards, _ = self.generate_episode()
            returns = torch.tensor(rewards, dtype=torch.float32)
            returns = (returns - returns.mean()) / (returns.std() + 1e-8)
            log_probs_tensor = torch.tensor(log_probs, requires_grad=True)
            loss = -(log_probs_tensor * returns).mean()
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.generator.parameters(), 1.0)
            self.optimizer.step()
        return molecules


gen = TokenGenerator()
rl = ReinforcementLearning(gen, CarbonScore())
before = [p.detach().clone() for p in gen.parameters()]
rl.optimize(num_steps=5)
assert all(p.grad is None for p in gen.parameters()), "generator should have no gradient"
assert all(torch.equal(a, b) for a, b in zip(before, gen.parameters())), "generator should not move"

# intended: score the sampled token sequences again, with the graph kept
_, _, rewards, token_lists = rl.generate_episode()
gen.train()
seq_logps = []
for tokens in token_lists:
    inp = torch.tensor(tokens[:-1]).unsqueeze(1)  # one-token inputs, as in sampling
    logits, _ = gen(inp)
    seq_logps.append(F.log_softmax(logits[:, -1, :], -1).gather(1, torch.tensor(tokens[1:]).unsqueeze(1)).sum())
returns = torch.tensor(rewards)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
rl.optimizer.zero_grad()
(-(torch.stack(seq_logps) * returns).mean()).backward()
assert all(p.grad is not None for p in gen.parameters())
assert sum(p.grad.abs().sum() for p in gen.parameters()) > 0
rl.optimizer.step()
assert any(not torch.equal(a, b) for a, b in zip(before, gen.parameters()))
print("rebuilt log-prob tensor: generator unchanged; graph-kept log-probs: generator updated")
