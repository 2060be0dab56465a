"""paddle.text: the 2.x text datasets (datasets.py, on the parsers of paddle_compat/paddle2/dataset/) and
viterbi_decode / ViterbiDecoder (viterbi.py)."""
