"""The program of the runtime-size case, shared by its recorder under real 2.6.2 (tools/oracle/rec_static_sizes26.py)
and our test (tests/api2x/test_static_sizes26.py); it takes the `paddle` module it builds with."""


def build(paddle, mode: str) -> tuple:
    """In the current static programs: x [2, 4, 4, 4] interpolated to y's runtime spatial size (a size tensor),
    then concatenated with y [-1, 3, 8, 8] once and around y. Returns (u, z, w)."""
    x = paddle.static.data("x", [2, 4, 4, 4], "float32")
    y = paddle.static.data("y", [-1, 3, 8, 8], "float32")
    u = paddle.nn.functional.interpolate(x, paddle.shape(y)[2:], mode=mode)
    return u, paddle.concat([u, y], axis=1), paddle.concat([y, u, y], axis=1)
