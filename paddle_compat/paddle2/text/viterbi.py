"""paddle.text.viterbi_decode / ViterbiDecoder: the highest-scoring tag path of a linear-chain CRF.

potentials [batch, seq_len, num_tags], transition_params [num_tags, num_tags] (from-tag x to-tag), lengths
[batch] int64. With include_bos_eos_tag, the last tag is the start tag (the first step starts from it) and the
second to last the stop tag (added at each sequence's last step); positions past a sequence's length in the
path are 0. Returns (scores [batch], path [batch, max(lengths)] int64), as Paddle's viterbi_decode kernel."""

from __future__ import annotations

import torch

from paddle_compat.paddle2.nn.layer import Layer
from paddle_compat.engine.framework.registry import export, op


@op("viterbi_decode", exports=("paddle.text.viterbi_decode", "paddle.text.viterbi_decode.viterbi_decode"),
    differentiable=False)
def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True, name=None):
    if potentials.dim() != 3 or transition_params.dim() != 2 or lengths.dim() != 1:
        raise ValueError(
            "paddle.text.viterbi_decode: expected potentials [batch, seq_len, num_tags], transition_params "
            f"[num_tags, num_tags] and lengths [batch]; got {list(potentials.shape)}, "
            f"{list(transition_params.shape)}, {list(lengths.shape)}")
    batch, _, n = potentials.shape
    trans = transition_params.to(potentials.dtype)
    left = lengths.to(torch.int64).reshape(batch, 1).clone()
    max_len = int(lengths.max()) if batch else 0
    if include_bos_eos_tag:
        alpha = torch.full((batch, n), -1e4, dtype=potentials.dtype)
        alpha[:, -1] = 0
    history = []
    for t in range(max_len):
        logit = potentials[:, t]
        if t == 0 and not include_bos_eos_tag:
            alpha = logit
            left = left - 1
            continue
        best, idx = (alpha.unsqueeze(2) + trans.unsqueeze(0)).max(1)
        if t >= 1:
            history.append(idx)
        alpha = torch.where(left > 0, best + logit, alpha)
        if include_bos_eos_tag:
            alpha = alpha + (left == 1).to(alpha.dtype) * trans[-2].unsqueeze(0)
        left = left - 1
    scores, last = alpha.max(1)
    left = left[:, 0]
    path = [last * (left >= 0)]
    rows = torch.arange(batch)
    for hist in reversed(history):
        left = left + 1
        prev = hist[rows, last] * (left > 0)
        prev = torch.where(left == 0, last, prev)
        path.insert(0, prev)
        last = prev + (left < 0) * last
    return scores, torch.stack(path, 1).to(torch.int64)


class ViterbiDecoder(Layer):
    """ViterbiDecoder(transitions, include_bos_eos_tag=True, name=None); forward(potentials, lengths)."""

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)


export(ViterbiDecoder, "paddle.text.ViterbiDecoder", "paddle.text.viterbi_decode.ViterbiDecoder")
