"""
expect: GL003 64, GL001 54
dynamic: confirm
source: https://github.com/yl4579/StyleTTS2/issues/258

In a modified StyleTTS2 first-stage training script the user had added
"g_loss.requires_grad = True" just before the backward call, and training
crashed only when the TMA stage started (epoch >= TMA_epoch) with "you can only
change requires_grad flags of leaf variables". That message means that for all
earlier epochs g_loss (which is just the mel reconstruction loss before TMA) had
no history: it was a leaf, the flag switch silenced the usual "element 0 of
tensors does not require grad" error, and the decoder and text encoder received
no gradient at all while the logged loss looked normal. Once the TMA terms (the
aligner's s2s loss, which does have history) are added, g_loss stops being a
leaf and the same line raises. The issue shows the requires_grad line but not
what cut the mel path; here we reduce it to the decoder call sitting inside the
torch.no_grad() block that, in the original script, only wraps the F0/energy
extraction. Asserts: during warm-up the decoder weights never change and have
no gradient, at the TMA epoch the switch raises, and the fixed script (decoder
outside no_grad, no flag switch) trains the decoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_TOK, D, T = 12, 16, 10
TMA_EPOCH = 3

text_encoder = nn.Embedding(N_TOK, D)
aligner = nn.Linear(D, N_TOK)                 # pretrained text aligner (s2s head)
pitch_extractor = nn.Linear(D, 1)             # pretrained, frozen in practice
decoder = nn.Sequential(nn.Linear(D + 1, 32), nn.Tanh(), nn.Linear(32, 4))

texts = torch.randint(0, N_TOK, (8, T))
mels = torch.randn(8, T, D)
wav = torch.randn(8, T, 4)

params = list(text_encoder.parameters()) + list(decoder.parameters()) + list(aligner.parameters())
optimizer = torch.optim.Adam(params, lr=1e-2)


def stage_one_step(epoch, fixed):
    en = text_encoder(texts)                              # (B, T, D)
    if fixed:
        with torch.no_grad():
            F0_real = pitch_extractor(mels)
        y_rec = decoder(torch.cat([en, F0_real], -1))
    else:
        with torch.no_grad():
            F0_real = pitch_extractor(mels)
            y_rec = decoder(torch.cat([en, F0_real], -1))
    loss_mel = F.l1_loss(y_rec, wav)
    if epoch >= TMA_EPOCH:
        s2s_pred = aligner(mels)
        loss_s2s = F.cross_entropy(s2s_pred.reshape(-1, N_TOK), texts.reshape(-1))
        g_loss = loss_mel + 0.2 * loss_s2s
    else:
        g_loss = loss_mel
    optimizer.zero_grad()
    if not fixed:
        g_loss.requires_grad = True
    g_loss.backward()
    optimizer.step()
    return loss_mel.item()


dec_w0 = decoder[0].weight.detach().clone()
crash = None
for epoch in range(6):
    try:
        stage_one_step(epoch, fixed=False)
    except RuntimeError as err:
        crash = (epoch, str(err))
        break
    assert decoder[0].weight.grad is None            # nothing reached the decoder
    assert text_encoder.weight.grad is None
assert torch.equal(dec_w0, decoder[0].weight)        # warm-up trained nothing
assert crash is not None and crash[0] == TMA_EPOCH
assert "leaf variables" in crash[1]

# fixed script: decoder outside no_grad, no flag switch
torch.manual_seed(0)
decoder = nn.Sequential(nn.Linear(D + 1, 32), nn.Tanh(), nn.Linear(32, 4))
params = list(text_encoder.parameters()) + list(decoder.parameters()) + list(aligner.parameters())
optimizer = torch.optim.Adam(params, lr=1e-2)
dec_w0 = decoder[0].weight.detach().clone()
hist = [stage_one_step(epoch, fixed=True) for epoch in range(6)]
for _ in range(60):
    hist.append(stage_one_step(6, fixed=True))
assert decoder[0].weight.grad is not None and decoder[0].weight.grad.abs().sum() > 0
assert not torch.equal(dec_w0, decoder[0].weight)
assert hist[-1] < hist[0]
print("broken script: warm-up updated nothing, flag switch refused at epoch", crash[0])
print("fixed script: mel loss %.3f -> %.3f" % (hist[0], hist[-1]))
