import torch
import torch.nn as nn


def logsumexp(tensor, dim=-1):
    max_score, _ = tensor.max(dim)
    return max_score + (tensor - max_score.unsqueeze(dim)).exp().sum(dim).log()


def viterbi_decode(tag_sequence, transition_matrix):
    # tag_sequence: (T, K) scores, transition_matrix: (K, K); returns best path as ints
    path_scores = [tag_sequence[0, :]]
    path_indices = []
    for t in range(1, tag_sequence.size(0)):
        summed = path_scores[t - 1].unsqueeze(-1) + transition_matrix
        scores, paths = torch.max(summed, 0)
        path_scores.append(tag_sequence[t, :] + scores)
        path_indices.append(paths)
    viterbi_score, best_path = torch.max(path_scores[-1], 0)
    viterbi_path = [int(best_path)]
    for backward_timestep in reversed(path_indices):
        viterbi_path.append(int(backward_timestep[viterbi_path[-1]]))
    viterbi_path.reverse()
    return viterbi_path, viterbi_score


class ConditionalRandomField(nn.Module):
    def __init__(self, num_tags, constraint_mask=None):
        super().__init__()
        self.num_tags = num_tags
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)
        self.start_transitions = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.end_transitions = nn.Parameter(torch.randn(num_tags) * 0.1)
        if constraint_mask is None:
            constraint_mask = torch.ones(num_tags + 2, num_tags + 2)
        self.register_buffer("_constraint_mask", constraint_mask)

    def _input_likelihood(self, logits, mask):
        batch_size, seq_len, num_tags = logits.size()
        mask = mask.float().transpose(0, 1)
        logits = logits.transpose(0, 1)
        alpha = self.start_transitions.view(1, num_tags) + logits[0]
        for i in range(1, seq_len):
            inner = alpha.view(batch_size, num_tags, 1) + logits[i].view(batch_size, 1, num_tags) \
                + self.transitions.view(1, num_tags, num_tags)
            alpha = logsumexp(inner, 1) * mask[i].view(batch_size, 1) + alpha * (1 - mask[i]).view(batch_size, 1)
        return logsumexp(alpha + self.end_transitions.view(1, num_tags))

    def _joint_likelihood(self, logits, tags, mask):
        batch_size, seq_len, _ = logits.shape
        logits, tags, mask = logits.transpose(0, 1), tags.transpose(0, 1), mask.float().transpose(0, 1)
        score = self.start_transitions.index_select(0, tags[0])
        for i in range(seq_len - 1):
            current_tag, next_tag = tags[i], tags[i + 1]
            trans = self.transitions[current_tag.view(-1), next_tag.view(-1)]
            emit = logits[i].gather(1, current_tag.view(batch_size, 1)).squeeze(1)
            score = score + trans * mask[i + 1] + emit * mask[i]
        last_idx = mask.sum(0).long() - 1
        last_tags = tags.gather(0, last_idx.view(1, batch_size)).squeeze(0)
        last_emit = logits[-1].gather(1, last_tags.view(batch_size, 1)).squeeze(1) * mask[-1]
        return score + self.end_transitions.index_select(0, last_tags) + last_emit

    def forward(self, inputs, tags, mask):
        return torch.sum(self._joint_likelihood(inputs, tags, mask) - self._input_likelihood(inputs, mask))

    def viterbi_tags(self, logits, mask):
        _, max_seq_length, num_tags = logits.size()
        # decoding only: take the raw values out of the graph
        logits, mask = logits.data, mask.data
        start_tag, end_tag = num_tags, num_tags + 1
        transitions = torch.Tensor(num_tags + 2, num_tags + 2).fill_(-10000.)
        constrained = (self.transitions * self._constraint_mask[:num_tags, :num_tags]
                       + -10000.0 * (1 - self._constraint_mask[:num_tags, :num_tags]))
        transitions[:num_tags, :num_tags] = constrained.data
        transitions[start_tag, :num_tags] = (self.start_transitions.detach() * self._constraint_mask[start_tag, :num_tags].data
                                             + -10000. * (1 - self._constraint_mask[start_tag, :num_tags].detach()))
        transitions[:num_tags, end_tag] = (self.end_transitions.detach() * self._constraint_mask[:num_tags, end_tag].data
                                           + -10000. * (1 - self._constraint_mask[:num_tags, end_tag].detach()))
        best_paths = []
        tag_sequence = torch.Tensor(max_seq_length + 2, num_tags + 2)
        for prediction, prediction_mask in zip(logits, mask):
            sequence_length = int(torch.sum(prediction_mask))
            tag_sequence.fill_(-10000.)
            tag_sequence[0, start_tag] = 0.
            tag_sequence[1:(sequence_length + 1), :num_tags] = prediction[:sequence_length]
            tag_sequence[sequence_length + 1, end_tag] = 0.
            path, score = viterbi_decode(tag_sequence[:(sequence_length + 2)], transitions)
            best_paths.append((path[1:-1], score.item()))
        return best_paths
