"""The table of paddle.nn layer cases shared by tools/oracle/rec_nn26_layers.py (real Paddle 2.6.2) and
tests/nn/test_layers_table.py (paddle_compat). Pure data + numpy: no paddle import here.

Each case: (id, constructor spelled in Python over `nn`, input specs, mode; RNN cases run in train mode: Paddle 2.6 cannot backprop its CPU rnn op in eval mode). Input specs:
("f", shape) normal floats; ("u", shape) uniform (0.05, 0.95); ("b", shape) 0/1 floats; ("s", shape) +-1 floats;
("i", shape, high) int64 in [0, high); ("c", values, dtype) constant.
Every float input requires grad; the recorded loss is sum(out * cos(arange)) over the float outputs."""
import numpy as np

CASES = [
    # activations
    ("relu", "nn.ReLU()", [("f", [2, 3, 4])], "eval"),
    ("relu6", "nn.ReLU6()", [("f", [2, 3, 4])], "eval"),
    ("elu", "nn.ELU(0.5)", [("f", [2, 3, 4])], "eval"),
    ("selu", "nn.SELU()", [("f", [2, 3, 4])], "eval"),
    ("gelu", "nn.GELU()", [("f", [2, 3, 4])], "eval"),
    ("gelu_tanh", "nn.GELU(True)", [("f", [2, 3, 4])], "eval"),
    ("leaky_relu", "nn.LeakyReLU(0.1)", [("f", [2, 3, 4])], "eval"),
    ("sigmoid", "nn.Sigmoid()", [("f", [2, 3, 4])], "eval"),
    ("hardsigmoid", "nn.Hardsigmoid()", [("f", [2, 3, 4])], "eval"),
    ("hardswish", "nn.Hardswish()", [("f", [2, 3, 4])], "eval"),
    ("hardtanh", "nn.Hardtanh(-0.5, 0.5)", [("f", [2, 3, 4])], "eval"),
    ("hardshrink", "nn.Hardshrink(0.4)", [("f", [2, 3, 4])], "eval"),
    ("softshrink", "nn.Softshrink(0.4)", [("f", [2, 3, 4])], "eval"),
    ("tanh", "nn.Tanh()", [("f", [2, 3, 4])], "eval"),
    ("tanhshrink", "nn.Tanhshrink()", [("f", [2, 3, 4])], "eval"),
    ("softplus", "nn.Softplus(2, 10)", [("f", [2, 3, 4])], "eval"),
    ("softsign", "nn.Softsign()", [("f", [2, 3, 4])], "eval"),
    ("swish", "nn.Swish()", [("f", [2, 3, 4])], "eval"),
    ("log_sigmoid", "nn.LogSigmoid()", [("f", [2, 3, 4])], "eval"),
    ("softmax", "nn.Softmax(1)", [("f", [2, 3, 4])], "eval"),
    ("log_softmax", "nn.LogSoftmax()", [("f", [2, 3, 4])], "eval"),
    ("thresholded_relu", "nn.ThresholdedReLU(0.5)", [("f", [2, 3, 4])], "eval"),
    ("maxout", "nn.Maxout(2, axis=1)", [("f", [2, 4, 3, 3])], "eval"),
    ("prelu", "nn.PReLU(3, 0.2)", [("f", [2, 3, 4])], "eval"),
    ("prelu1", "nn.PReLU()", [("f", [2, 3, 4])], "eval"),
    # losses
    ("mse", "nn.MSELoss()", [("f", [4, 3]), ("f", [4, 3])], "eval"),
    ("l1_sum", "nn.L1Loss(reduction='sum')", [("f", [4, 3]), ("f", [4, 3])], "eval"),
    ("bce", "nn.BCELoss()", [("u", [4, 3]), ("b", [4, 3])], "eval"),
    ("bce_logits", "nn.BCEWithLogitsLoss(reduction='none')", [("f", [4, 3]), ("b", [4, 3])], "eval"),
    ("cross_entropy", "nn.CrossEntropyLoss()", [("f", [4, 5]), ("i", [4, 1], 5)], "eval"),
    ("cross_entropy_none", "nn.CrossEntropyLoss(reduction='none', ignore_index=2)", [("f", [4, 5]), ("i", [4], 5)],
     "eval"),
    ("nll", "nn.NLLLoss()", [("f", [4, 5]), ("i", [4], 5)], "eval"),
    ("kldiv", "nn.KLDivLoss(reduction='batchmean')", [("f", [4, 3]), ("u", [4, 3])], "eval"),
    ("smooth_l1", "nn.SmoothL1Loss(delta=0.5)", [("f", [4, 3]), ("f", [4, 3])], "eval"),
    ("margin_ranking", "nn.MarginRankingLoss(0.1)", [("f", [4, 3]), ("f", [4, 3]), ("s", [4, 3])], "eval"),
    ("ctc", "nn.CTCLoss()", [("f", [5, 2, 4]), ("c", [[1, 2, 3], [3, 1, 0]], "int32"), ("c", [5, 5], "int64"), ("c", [3, 2], "int64")],
     "eval"),
    ("hsigmoid", "nn.HSigmoidLoss(3, 5)", [("f", [4, 3]), ("i", [4, 1], 5)], "eval"),
    # pooling
    ("max_pool1d", "nn.MaxPool1D(2)", [("f", [2, 3, 8])], "eval"),
    ("max_pool2d", "nn.MaxPool2D(2)", [("f", [2, 3, 6, 6])], "eval"),
    ("max_pool2d_ceil", "nn.MaxPool2D(3, 2, 1, ceil_mode=True)", [("f", [2, 3, 6, 6])], "eval"),
    ("max_pool3d", "nn.MaxPool3D(2)", [("f", [1, 2, 4, 4, 4])], "eval"),
    ("avg_pool1d", "nn.AvgPool1D(2)", [("f", [2, 3, 8])], "eval"),
    ("avg_pool2d", "nn.AvgPool2D(3, 2, 1)", [("f", [2, 3, 6, 6])], "eval"),
    ("avg_pool2d_incl", "nn.AvgPool2D(3, 2, 1, exclusive=False)", [("f", [2, 3, 6, 6])], "eval"),
    ("avg_pool3d", "nn.AvgPool3D(2)", [("f", [1, 2, 4, 4, 4])], "eval"),
    ("adaptive_avg_pool1d", "nn.AdaptiveAvgPool1D(3)", [("f", [2, 3, 8])], "eval"),
    ("adaptive_avg_pool2d", "nn.AdaptiveAvgPool2D((2, 3))", [("f", [2, 3, 6, 7])], "eval"),
    ("adaptive_avg_pool3d", "nn.AdaptiveAvgPool3D(2)", [("f", [1, 2, 4, 5, 4])], "eval"),
    ("adaptive_max_pool1d", "nn.AdaptiveMaxPool1D(3)", [("f", [2, 3, 8])], "eval"),
    ("adaptive_max_pool2d", "nn.AdaptiveMaxPool2D(2)", [("f", [2, 3, 6, 6])], "eval"),
    ("adaptive_max_pool3d", "nn.AdaptiveMaxPool3D(2)", [("f", [1, 2, 4, 4, 4])], "eval"),
    # conv
    ("conv1d", "nn.Conv1D(2, 4, 3, padding=1)", [("f", [2, 2, 7])], "eval"),
    ("conv2d", "nn.Conv2D(2, 4, 3, stride=2, padding=1)", [("f", [2, 2, 7, 7])], "eval"),
    ("conv2d_groups_same", "nn.Conv2D(4, 4, 3, groups=2, padding='SAME')", [("f", [2, 4, 5, 5])], "eval"),
    ("conv2d_reflect", "nn.Conv2D(2, 3, 3, padding=1, padding_mode='reflect')", [("f", [2, 2, 5, 5])], "eval"),
    ("conv2d_nhwc", "nn.Conv2D(2, 4, 3, data_format='NHWC')", [("f", [2, 5, 5, 2])], "eval"),
    ("conv3d", "nn.Conv3D(2, 3, 2)", [("f", [1, 2, 4, 4, 4])], "eval"),
    ("conv1d_t", "nn.Conv1DTranspose(2, 3, 3, stride=2)", [("f", [2, 2, 5])], "eval"),
    ("conv2d_t", "nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1)", [("f", [2, 2, 4, 4])],
     "eval"),
    ("conv3d_t", "nn.Conv3DTranspose(2, 3, 2)", [("f", [1, 2, 3, 3, 3])], "eval"),
    # norms
    ("bn1d_train", "nn.BatchNorm1D(3)", [("f", [4, 3])], "train"),
    ("bn1d_eval", "nn.BatchNorm1D(3)", [("f", [4, 3, 5])], "eval"),
    ("bn2d_train", "nn.BatchNorm2D(3, momentum=0.8)", [("f", [2, 3, 4, 4])], "train"),
    ("bn3d_train", "nn.BatchNorm3D(2)", [("f", [2, 2, 3, 3, 3])], "train"),
    ("batch_norm_act", "nn.BatchNorm(3, act='relu')", [("f", [2, 3, 4, 4])], "train"),
    ("layer_norm", "nn.LayerNorm([4, 5])", [("f", [2, 3, 4, 5])], "eval"),
    ("group_norm", "nn.GroupNorm(2, 4)", [("f", [2, 4, 3, 3])], "eval"),
    ("instance_norm1d", "nn.InstanceNorm1D(3)", [("f", [2, 3, 6])], "eval"),
    ("instance_norm2d", "nn.InstanceNorm2D(3)", [("f", [2, 3, 4, 4])], "eval"),
    ("instance_norm3d", "nn.InstanceNorm3D(2)", [("f", [2, 2, 3, 3, 3])], "eval"),
    ("lrn", "nn.LocalResponseNorm(3)", [("f", [2, 5, 3, 3])], "eval"),
    ("spectral_norm", "nn.SpectralNorm([4, 3, 2], dim=1, power_iters=2)", [("f", [4, 3, 2])], "eval"),
    # common
    ("linear", "nn.Linear(4, 3)", [("f", [2, 4])], "eval"),
    ("linear_nobias", "nn.Linear(4, 3, bias_attr=False)", [("f", [2, 5, 4])], "eval"),
    ("embedding", "nn.Embedding(10, 4, padding_idx=0)", [("i", [2, 5], 10)], "eval"),
    ("bilinear", "nn.Bilinear(3, 4, 2)", [("f", [5, 3]), ("f", [5, 4])], "eval"),
    ("flatten", "nn.Flatten()", [("f", [2, 3, 4])], "eval"),
    ("flatten01", "nn.Flatten(0, 1)", [("f", [2, 3, 4])], "eval"),
    ("dropout_eval", "nn.Dropout(0.5)", [("f", [2, 3, 4])], "eval"),
    ("dropout2d_eval", "nn.Dropout2D(0.5)", [("f", [2, 3, 4, 4])], "eval"),
    ("alpha_dropout_eval", "nn.AlphaDropout(0.5)", [("f", [2, 3, 4])], "eval"),
    ("pad1d_reflect", "nn.Pad1D(2, mode='reflect')", [("f", [2, 3, 5])], "eval"),
    ("pad2d_const", "nn.Pad2D([1, 0, 2, 1], value=1.5)", [("f", [1, 2, 3, 3])], "eval"),
    ("pad2d_replicate", "nn.Pad2D(1, mode='replicate')", [("f", [1, 2, 3, 3])], "eval"),
    ("pad3d", "nn.Pad3D(1)", [("f", [1, 1, 2, 2, 2])], "eval"),
    ("upsample_nearest", "nn.Upsample(scale_factor=2)", [("f", [1, 2, 3, 3])], "eval"),
    ("upsample_bilinear_ac", "nn.Upsample(size=[5, 7], mode='bilinear', align_corners=True)",
     [("f", [1, 2, 3, 4])], "eval"),
    ("upsample_bilinear", "nn.Upsample(scale_factor=2, mode='bilinear')", [("f", [1, 2, 3, 3])], "eval"),
    ("upsampling_nearest2d", "nn.UpsamplingNearest2D(scale_factor=2)", [("f", [1, 2, 3, 3])], "eval"),
    ("upsampling_bilinear2d", "nn.UpsamplingBilinear2D(size=[4, 6])", [("f", [1, 2, 3, 3])], "eval"),
    ("pixel_shuffle", "nn.PixelShuffle(2)", [("f", [1, 8, 2, 3])], "eval"),
    ("cosine_similarity", "nn.CosineSimilarity(axis=1)", [("f", [3, 4]), ("f", [3, 4])], "eval"),
    ("pairwise_distance", "nn.PairwiseDistance()", [("f", [3, 4]), ("f", [3, 4])], "eval"),
    # recurrent
    ("simple_rnn_cell", "nn.SimpleRNNCell(3, 4)", [("f", [2, 3])], "eval"),
    ("lstm_cell", "nn.LSTMCell(3, 4)", [("f", [2, 3])], "eval"),
    ("gru_cell", "nn.GRUCell(3, 4)", [("f", [2, 3])], "eval"),
    ("simple_rnn_2l", "nn.SimpleRNN(3, 4, num_layers=2)", [("f", [2, 5, 3])], "train"),
    ("lstm_bidirect", "nn.LSTM(3, 4, direction='bidirect')", [("f", [2, 5, 3])], "train"),
    ("gru_time_major", "nn.GRU(3, 4, time_major=True)", [("f", [5, 2, 3])], "train"),
    ("lstm_seq_len", "nn.LSTM(3, 4)", [("f", [2, 5, 3]), ("n", None), ("c", [5, 3], "int64")], "train"),
    ("rnn_wrapper", "nn.RNN(nn.LSTMCell(3, 4))", [("f", [2, 5, 3])], "train"),
    ("birnn", "nn.BiRNN(nn.GRUCell(3, 4), nn.GRUCell(3, 4))", [("f", [2, 5, 3])], "train"),
    # attention
    ("mha", "nn.MultiHeadAttention(8, 2)", [("f", [2, 3, 8])], "eval"),
    ("mha_kv", "nn.MultiHeadAttention(8, 2, kdim=6, vdim=5)", [("f", [2, 3, 8]), ("f", [2, 4, 6]), ("f", [2, 4, 5])],
     "eval"),
    ("mha_bool_mask", "nn.MultiHeadAttention(8, 2, need_weights=True)",
     [("f", [2, 3, 8]), ("n", None), ("n", None), ("c", [[1, 0, 0], [1, 1, 0], [1, 1, 1]], "bool")], "eval"),
    ("decoder_float_mask", "nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)",
     [("f", [2, 3, 8]), ("f", [2, 4, 8]), ("c", [[0.0, -1e9, -1e9], [0.0, 0.0, -1e9], [0.0, 0.0, 0.0]], "float32")],
     "eval"),
    ("encoder_layer", "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)", [("f", [2, 3, 8])], "eval"),
    ("encoder_layer_pre", "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, normalize_before=True, "
     "activation='gelu')", [("f", [2, 3, 8])], "eval"),
    ("decoder_layer", "nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)", [("f", [2, 3, 8]), ("f", [2, 4, 8])],
     "eval"),
    ("encoder", "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2)", [("f", [2, 3, 8])],
     "eval"),
    ("transformer", "nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)", [("f", [2, 4, 8]), ("f", [2, 3, 8])], "eval"),
]


def make_inputs(case_id, specs):
    """Deterministic inputs for one case (seeded by the case id)."""
    rng = np.random.RandomState(sum(map(ord, case_id)) % (2 ** 31))
    out = []
    for s in specs:
        kind = s[0]
        if kind == "f":
            out.append(rng.standard_normal(s[1]).astype("float32"))
        elif kind == "u":
            out.append(rng.uniform(0.05, 0.95, s[1]).astype("float32"))
        elif kind == "b":
            out.append(rng.randint(0, 2, s[1]).astype("float32"))
        elif kind == "s":
            out.append((rng.randint(0, 2, s[1]) * 2 - 1).astype("float32"))
        elif kind == "i":
            out.append(rng.randint(0, s[2], s[1]).astype("int64"))
        elif kind == "c":
            out.append(np.asarray(s[1], dtype=s[2]))
        elif kind == "n":
            out.append(None)
        else:
            raise ValueError(kind)
    return out


def make_params(case_id, shapes):
    """Deterministic parameter values (key -> shape), so both sides use the same weights."""
    rng = np.random.RandomState((sum(map(ord, case_id)) * 7 + 1) % (2 ** 31))
    out = {}
    for k, shape in shapes.items():
        v = (rng.standard_normal(shape) * 0.5).astype("float32")
        if k.endswith("_variance"):
            v = np.abs(v) + 0.5
        out[k] = v
    return out


def loss_weights(shape):
    n = int(np.prod(shape)) if len(shape) else 1
    return np.cos(np.arange(n, dtype="float64")).astype("float32").reshape(shape)
