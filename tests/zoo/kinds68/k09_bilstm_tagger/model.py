import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size, num_tags, emb_dim=16, hidden=24):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.1)
        self.hidden2tag = nn.Linear(2 * hidden, num_tags)

    def emissions(self, lstm_out):
        feats = lstm_out.data
        return self.hidden2tag(self.dropout(feats))

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        return self.emissions(out)


class BiLSTMTaggerV2(BiLSTMTagger):
    def emissions(self, lstm_out):
        return self.hidden2tag(self.dropout(lstm_out))
