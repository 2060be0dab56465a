"""A legacy static trainer that checkpoints every few steps and resumes after a crash, as real ones are written
(used by test_dist_resume.py under torchrun / paddle.distributed.launch with a restart allowed).

    python _dist_resume.py FLAVOUR CKPT_DIR OUT_DIR

FLAVOUR fluid18: paddle.fluid.incubate.fleet.collective, saved by `fleet.save_persistables` and loaded by
`fluid.io.load_persistables`; static2x: paddle.distributed.fleet, `paddle.static.save` / `paddle.static.load`.
Adam (its moments and beta powers are persistable: they are in the checkpoint). The data loader is a seeded
shuffle per epoch; its position (epoch, batch) is written beside each checkpoint in meta.json and skipped to on
resume. Trainer 0 saves every EVERY steps into CKPT_DIR/step_N: written under a temporary name and renamed when
complete, so a crash while saving leaves the previous one as the latest.

Fault injection: RESUME_TEST_KILL=rank:step makes that trainer SIGKILL itself in that step, after drawing its
batch (the loader has moved on, nothing is applied; the other trainer waits in the step's all-reduce);
RESUME_TEST_KILL=0:saveN kills trainer 0 after it wrote the files of step N's checkpoint but before it is complete
(meta.json, rename). Once: the marker file OUT_DIR/killed is written first, so the restarted job runs through.
At the end every trainer writes OUT_DIR/final{rank}.npz (parameters and optimizer state) and appends what it did
to OUT_DIR/log{rank}.txt.
"""

import json
import os
import shutil
import signal
import sys

import numpy as np

import paddle

flavour, ckpt_root, out_dir = sys.argv[1:4]
STEPS, EVERY, BATCH = 11, 3, 8
RS = np.random.RandomState(3)
DATA_X = RS.rand(5 * BATCH, 4).astype("float32")  # 5 batches per epoch
DATA_Y = (DATA_X @ RS.rand(4, 1) + 0.1 * RS.rand(5 * BATCH, 1)).astype("float32")


def loader(epoch, start):
    """Batches of one epoch (a shuffle seeded by the epoch), from batch `start` on."""
    order = np.random.RandomState(100 + epoch).permutation(len(DATA_X))
    for b in range(start, len(order) // BATCH):
        idx = order[b * BATCH:(b + 1) * BATCH]
        yield DATA_X[idx], DATA_Y[idx]


def latest_checkpoint():
    steps = [int(d[5:]) for d in os.listdir(ckpt_root) if d.startswith("step_") and d[5:].isdigit()] \
        if os.path.isdir(ckpt_root) else []
    return os.path.join(ckpt_root, f"step_{max(steps)}") if steps else None


if flavour == "fluid18":
    import paddle.fluid as fluid
    from paddle.fluid.incubate.fleet.base import role_maker
    from paddle.fluid.incubate.fleet.collective import DistributedStrategy, fleet

    fleet.init(role_maker.PaddleCloudRoleMaker(is_collective=True))
    main, startup = fluid.default_main_program(), fluid.default_startup_program()
    main.random_seed = startup.random_seed = 90
    x = fluid.layers.data(name="x", shape=[4], dtype="float32")
    y = fluid.layers.data(name="y", shape=[1], dtype="float32")
    h = fluid.layers.fc(input=x, size=8, act="tanh")
    pred = fluid.layers.fc(input=h, size=1)
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    opt = fleet.distributed_optimizer(fluid.optimizer.Adam(learning_rate=0.05), strategy=DistributedStrategy())
    opt.minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(fleet.startup_program)
    run_program, scope = fleet.main_program, fluid.global_scope()

    def save(dirname):
        fleet.save_persistables(exe, dirname)

    def load(dirname):
        fluid.io.load_persistables(exe, dirname, main_program=main)
else:
    from paddle.distributed import fleet

    paddle.enable_static()
    fleet.init(is_collective=True)
    main, startup = paddle.static.default_main_program(), paddle.static.default_startup_program()
    main.random_seed = startup.random_seed = 90
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    h = paddle.static.nn.fc(x, 8, activation="tanh")
    pred = paddle.static.nn.fc(h, 1)
    loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
    opt = fleet.distributed_optimizer(paddle.optimizer.Adam(0.05), fleet.DistributedStrategy())
    opt.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    run_program, scope = main, paddle.static.global_scope()

    def save(dirname):
        paddle.static.save(main, os.path.join(dirname, "model"))

    def load(dirname):
        paddle.static.load(main, os.path.join(dirname, "model"), exe)

tid, n = fleet.worker_index(), fleet.worker_num()
log = open(os.path.join(out_dir, f"log{tid}.txt"), "a")

step, epoch, batch = 0, 0, 0
last = latest_checkpoint()
if last is not None:
    load(last)
    with open(os.path.join(last, "meta.json")) as f:
        meta = json.load(f)
    step, epoch, batch = meta["step"], meta["epoch"], meta["batch"]
log.write(f"start step={step} epoch={epoch} batch={batch} from={last}\n")
log.flush()

kill = os.environ.get("RESUME_TEST_KILL")
marker = os.path.join(out_dir, "killed")


def die(where):
    """SIGKILL this trainer, the first time only (the marker file survives the restart)."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        log.write(f"SIGKILL {where}\n")
        log.flush()
        os.kill(os.getpid(), signal.SIGKILL)


while step < STEPS:
    for bx, by in loader(epoch, batch):
        batch += 1
        if kill == f"{tid}:{step}":
            die(f"in step {step}")
        exe.run(run_program, feed={"x": bx[tid::n], "y": by[tid::n]}, fetch_list=[loss.name])
        step += 1
        if step % EVERY == 0 and tid == 0:
            tmp, final = os.path.join(ckpt_root, f".step_{step}.tmp"), os.path.join(ckpt_root, f"step_{step}")
            shutil.rmtree(tmp, ignore_errors=True)
            save(tmp)
            if kill == f"{tid}:save{step}":
                die(f"while saving the checkpoint of step {step}")
            with open(os.path.join(tmp, "meta.json"), "w") as f:
                json.dump({"step": step, "epoch": epoch, "batch": batch}, f)
            os.rename(tmp, final)  # the checkpoint exists once it is complete
        if step == STEPS:
            break
    else:
        epoch, batch = epoch + 1, 0

names = sorted(v.name for v in main.list_vars() if v.persistable and scope.find_var(v.name) is not None
               and v.name not in ("x", "y"))
np.savez(os.path.join(out_dir, f"final{tid}.npz"),
         **{k: np.array(scope.find_var(k).get_tensor()) for k in names})
log.write(f"done step={step} epoch={epoch} batch={batch}\n")
log.close()
