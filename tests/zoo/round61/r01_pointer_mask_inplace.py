"""
expect: GL005 49
dynamic: confirm
source: https://github.com/pemami4911/neural-combinatorial-rl-pytorch/issues/5

A pointer-network decoder for the travelling salesman problem, trained with
REINFORCE, keeps one boolean "visited" mask for the whole decoding loop. At
every step it marks the city chosen at the previous step inside that same mask
tensor (an in-place index write) and then writes -inf into the attention logits
wherever the mask is set. The masked write of the logits records the mask for
the backward pass, so the next step's in-place edit of the mask changes a
tensor that autograd has already saved. With the PyTorch of the report the run
raised nothing but the TSP-20 model never learned ("it was just a mask.clone()
that was breaking everything"); current PyTorch checks the saved mask's version
and the backward raises "modified by an inplace operation". The fix in the thread (commit
389217e) clones the mask before marking the new city. The asserts catch the
RuntimeError in the shared-mask decoder, then train the clone-per-step decoder
for a few REINFORCE steps and check that the tours are permutations and that
the pointer weights change.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class PointerNet(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.embed = nn.Linear(2, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.cell = nn.LSTMCell(hidden, hidden)
        self.w_ref = nn.Linear(hidden, hidden, bias=False)
        self.w_q = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Parameter(torch.randn(hidden) * 0.1)
        self.start = nn.Parameter(torch.zeros(hidden))

    def attention_logits(self, ref, query):
        # ref: (B, n, h), query: (B, h) -> (B, n)
        u = torch.tanh(self.w_ref(ref) + self.w_q(query).unsqueeze(1))
        return u @ self.v

    def mask_logits_shared(self, logits, mask, prev_idx):
        # original decoder: the same mask object is carried across steps
        if mask is None:
            mask = torch.zeros_like(logits, dtype=torch.bool)
        if prev_idx is not None:
            mask[torch.arange(logits.size(0)), prev_idx] = True
            logits[mask] = float("-inf")
        return logits, mask

    def mask_logits_cloned(self, logits, mask, prev_idx):
        # fix from the thread: mark the new city in a fresh copy of the mask
        if mask is None:
            mask = torch.zeros_like(logits, dtype=torch.bool)
        new_mask = mask.clone()
        if prev_idx is not None:
            new_mask[torch.arange(logits.size(0)), prev_idx] = True
            logits[new_mask] = float("-inf")
        return logits, new_mask

    def forward(self, coords, clone_mask):
        B, n, _ = coords.shape
        emb = self.embed(coords)
        ref, (h, c) = self.encoder(emb)
        h, c = h[0], c[0]
        dec_in = self.start.expand(B, -1)
        mask, prev_idx = None, None
        tour, log_probs = [], []
        for _ in range(n):
            h, c = self.cell(dec_in, (h, c))
            logits = self.attention_logits(ref, h)
            if clone_mask:
                logits, mask = self.mask_logits_cloned(logits, mask, prev_idx)
            else:
                logits, mask = self.mask_logits_shared(logits, mask, prev_idx)
            probs = torch.softmax(logits, dim=1)
            idx = torch.multinomial(probs, 1).squeeze(1)
            log_probs.append(torch.log(probs.gather(1, idx[:, None]).squeeze(1)))
            tour.append(idx)
            dec_in = emb[torch.arange(B), idx]
            prev_idx = idx
        return torch.stack(tour, 1), torch.stack(log_probs, 1).sum(1)


def tour_length(coords, tour):
    ordered = coords[torch.arange(coords.size(0))[:, None], tour]
    step = ordered - ordered.roll(-1, dims=1)
    return step.norm(dim=2).sum(1)


def reinforce_step(model, opt, coords, baseline, clone_mask):
    tour, log_p = model(coords, clone_mask)
    length = tour_length(coords, tour)
    advantage = (length - baseline).detach()
    loss = (advantage * log_p).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return tour, length


def run(clone_mask):
    torch.manual_seed(0)
    model = PointerNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = model.v.detach().clone()
    baseline = torch.tensor(0.0)
    tours = []
    for _ in range(5):
        coords = torch.rand(8, 6, 2)
        tour, length = reinforce_step(model, opt, coords, baseline, clone_mask)
        baseline = 0.9 * baseline + 0.1 * length.mean()
        tours.append(tour)
    return model, before, tours


# shared mask: the in-place mark of the new city breaks the saved mask
try:
    run(clone_mask=False)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised

# cloned mask: decoding is the same, training works
model, before, tours = run(clone_mask=True)
for tour in tours:
    assert torch.equal(tour.sort(1).values, torch.arange(6).expand(8, 6))
assert not torch.allclose(model.v.detach(), before)
print("r01 ok: shared mask raises at backward, cloned mask trains")
