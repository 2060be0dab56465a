"""fluid 1.x DistributeTranspiler: nccl2 mode prepares the trainer program; parameter-server modes raise."""

from __future__ import annotations

import pytest

# DistributeTranspilerConfig() as printed by Paddle 1.8.5 (public fields)
PADDLE18_CONFIG = {
    "collective_mode": None, "completely_not_async": False, "enable_dc_asgd": False, "geo_sgd_mode": False,
    "geo_sgd_need_push_nums": 100, "half_async": False, "hierarchical_allreduce_inter_nranks": 0,
    "min_block_size": 8192, "mode": "pserver", "nccl_comm_num": 1, "print_log": False,
    "runtime_split_send_recv": False, "slice_var_up": True, "split_method": None, "sync_mode": True,
    "use_hierarchical_allreduce": False, "wait_port": True,
}


def test_config_defaults_match_paddle18():
    import paddle.fluid as fluid

    c = fluid.DistributeTranspilerConfig()
    assert {k: getattr(c, k) for k in PADDLE18_CONFIG} == PADDLE18_CONFIG


def test_nccl2_mode_prepares_the_trainer_program(monkeypatch):
    import paddle.fluid as fluid

    monkeypatch.delenv("WORLD_SIZE", raising=False)
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data("x", [4])
        fluid.optimizer.SGD(0.1).minimize(fluid.layers.mean(fluid.layers.fc(x, 2)))
    cfg = fluid.DistributeTranspilerConfig()
    cfg.mode = "nccl2"
    t = fluid.DistributeTranspiler(config=cfg)
    t.transpile(1, program=main, trainers="10.0.0.1:6170,10.0.0.2:6170", current_endpoint="10.0.0.2:6170",
                startup_program=startup)
    assert t.get_trainer_program() is main and t.get_startup_program() is startup
    assert main._trainers_endpoints == ["10.0.0.1:6170", "10.0.0.2:6170"] and main._nccl_comm_num == 1
    monkeypatch.setenv("WORLD_SIZE", "4")  # under torchrun the endpoint list must match the trainers started
    with pytest.raises(ValueError, match="WORLD_SIZE=4"):
        t.transpile(0, program=main, trainers="a:1,b:1")
    with pytest.raises(ValueError, match="trainer_id 2"):
        monkeypatch.delenv("WORLD_SIZE")
        t.transpile(2, program=main, trainers="a:1,b:1")


def test_collective_mode_says_what_is_missing():
    import paddle.fluid as fluid

    cfg = fluid.DistributeTranspilerConfig()
    cfg.mode = "collective"
    with pytest.raises(NotImplementedError, match="c_allreduce"):
        fluid.DistributeTranspiler(cfg).transpile(0, trainers=2)
    with pytest.raises(Exception, match="call transpile"):
        fluid.DistributeTranspiler(cfg).get_pserver_program("127.0.0.1:6174")


def test_async_and_misused_pserver_transpiles_are_clear_errors(monkeypatch):
    """pserver mode end to end: tests/distributed/test_dist_pserver.py."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name="x", shape=[2], dtype="float32")
        loss = fluid.layers.mean(fluid.layers.fc(x, 1))
        t = fluid.DistributeTranspiler()
        with pytest.raises(Exception, match="has no backward"):
            t.transpile(0, pservers="127.0.0.1:1", trainers=2)
        fluid.optimizer.SGD(0.1).minimize(loss)
        with pytest.raises(NotImplementedError, match="asynchronous"):
            t.transpile(0, pservers="127.0.0.1:1", trainers=2, sync_mode=False)
        with pytest.raises(Exception, match="number of trainers"):
            t.transpile(0, pservers="127.0.0.1:1", trainers="127.0.0.1:2")
        monkeypatch.setenv("TRAINING_ROLE", "PSERVER")
        t.transpile(0, pservers="127.0.0.1:1,127.0.0.1:2", trainers=2)
        with pytest.raises(Exception, match="not one of the pservers"):
            t.get_pserver_program("127.0.0.1:3")
        prog, start = t.get_pserver_programs("127.0.0.1:2")
        assert prog._ps_server["first"] == "127.0.0.1:1" and len(start.global_block().vars) == 0
        assert t.get_trainer_program() is main and main._ps_trainer == {"trainers": 2, "trainer_id": 0}
