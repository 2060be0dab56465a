"""Shared by the fluid 1.8 detection tests: build a static program, feed (array, lengths) pairs as LoDTensors."""

from __future__ import annotations



def run_lod_static(build, feed):
    """build(fluid) -> list of output Variables; feed: name -> (array, lengths or None).

    Returns (fetched outputs, the LoD offsets of each output or None, the output Variables)."""
    import paddle

    paddle.enable_static()
    fluid = paddle.fluid
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        outs = build(fluid)
        lods = [o.node.meta.get("lod_var") for o in outs]
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    fd = {n: fluid.create_lod_tensor(a, [lens], fluid.CPUPlace()) if lens is not None else a
          for n, (a, lens) in feed.items()}
    res = exe.run(main, feed=fd, fetch_list=list(outs) + [lv for lv in lods if lv is not None])
    got = iter(res[len(outs):])
    return res[:len(outs)], [next(got).tolist() if lv is not None else None for lv in lods], outs


def lod_data(fluid, specs):
    return {n: fluid.layers.data(n, s, dtype=dt, lod_level=ll, append_batch_size=False) for n, s, dt, ll in specs}
