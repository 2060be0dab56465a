"""Issue 28, second round: moves on the new layout, after moves.py (python moves.py REPO && python moves2.py REPO)."""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import moves

moves.MOVES = [
    ("paddle2.nn._api", "engine.framework.lookup"),
    ("paddle2.nn.parameter", "engine.framework.eager_parameter"),
    ("fluid.contrib_amp", "engine.static.amp"),
    ("fluid.layer_helper", "engine.static.layer_helper"),
    ("fluid.fleet", "paddle2.distributed.fleet_base"),
    ("fluid.data_generator", "paddle2.distributed.data_generator"),
    ("fluid.utils", "paddle2.utils.nest"),
    ("fluid.dataset", "paddle2.distributed.fleet_dataset"),
    ("engine.parallel.env", "paddle2.distributed.env"),
    ("engine.ops.cudnn_lstm", "engine.ops.rnn_decoding"),
    ("engine.ops.fluid_basic", "engine.ops.fluid_only"),
    ("engine.ops.fluid_extra", "engine.ops.fluid_only_kernels"),
]

if __name__ == "__main__":
    moves.main(sys.argv[1])
